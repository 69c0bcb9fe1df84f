import { Module } from '@nestjs/common';
import { ExhibitsController } from './exhibits.controller.js';
import { ExhibitsRepository } from './exhibits.repository.js';

/**
 * A module as README.md's "Adding a module" makes one: its routes, and its table behind a
 * repository that reaches the database through Sql (provided globally by DatabaseModule).
 */
@Module({
  controllers: [ExhibitsController],
  providers: [ExhibitsRepository],
})
export class ExhibitsModule {}
