import { Module } from '@nestjs/common';
import { ExhibitsController } from './exhibits.controller.js';

@Module({ controllers: [ExhibitsController] })
export class ExhibitsModule {}
