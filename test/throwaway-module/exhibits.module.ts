import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SqlStatements } from '../../src/database/sql-statements.js';
import { ExhibitsController } from './exhibits.controller.js';
import { ExhibitsRepository } from './exhibits.repository.js';

/** A module as README.md's "Adding a module" makes one: its routes, and its table behind a repository. */
@Module({
  controllers: [ExhibitsController],
  providers: [
    ExhibitsRepository,
    {
      provide: SqlStatements,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new SqlStatements(dataSource),
    },
  ],
})
export class ExhibitsModule {}
