import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SqlStatements } from '../database/sql-statements.js';
import { Capacity } from './capacity.js';

/**
 * Capacity as one concept: the places of any pool (an event's seats, a day's general admissions)
 * are taken by Capacity, one conditional write each. One instance for the application, so that
 * the turns of a pool's row are this instance's turns whichever module asks.
 */
@Module({
  providers: [
    {
      provide: Capacity,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new Capacity(new SqlStatements(dataSource)),
    },
  ],
  exports: [Capacity],
})
export class CapacityModule {}
