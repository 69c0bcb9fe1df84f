import { Module } from '@nestjs/common';
import { MuseumHoursController } from './museum-hours.controller.js';
import { MuseumHoursRepository } from './museum-hours.repository.js';
import { MuseumHoursService } from './museum-hours.service.js';

/**
 * Opening hours and the general admissions sold per date (docs/api.md, Museum hours), in tables
 * of its own. Exports MuseumHoursService: other modules (tickets) sell general admission through
 * its admitGeneral, never through the tables.
 */
@Module({
  controllers: [MuseumHoursController],
  providers: [MuseumHoursService, MuseumHoursRepository],
  exports: [MuseumHoursService],
})
export class MuseumHoursModule {}
