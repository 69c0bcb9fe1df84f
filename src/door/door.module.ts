import { Module } from '@nestjs/common';
import { DoorController } from './door.controller.js';

/** The door scanner page (docs/door.md): its files only; check-in itself is the tickets module's. */
@Module({ controllers: [DoorController] })
export class DoorModule {}
