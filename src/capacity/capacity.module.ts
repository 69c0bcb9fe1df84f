import { Module } from '@nestjs/common';
import { Sql } from '../database/sql.js';
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
      inject: [Sql],
      useFactory: (sql: Sql) => new Capacity(sql),
    },
  ],
  exports: [Capacity],
})
export class CapacityModule {}
