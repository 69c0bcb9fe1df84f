import { Module } from '@nestjs/common';
import { ProblemTranslators } from '../common/problem/problem-translators.js';
import { CapacityModule } from '../capacity/capacity.module.js';
import { AdmissionClaims } from './admission-claims.js';
import { DayAttendance } from './day-attendance.js';
import { MuseumHoursController } from './museum-hours.controller.js';
import { MuseumHoursRepository } from './museum-hours.repository.js';
import { MuseumHoursService } from './museum-hours.service.js';
import { MUSEUM_HOURS_PROBLEMS } from './museum-hours.problems.js';
import { ResetRegistry } from '../database/reset-registry.js';
import { TimeSlotsRepository } from './time-slots.repository.js';
import { TimeSlotsService } from './time-slots.service.js';

/**
 * Opening hours and the general admissions sold per date (docs/api.md, Museum hours), in tables
 * of its own; a day's admissions are a capacity pool (DAY_ADMISSIONS, in MuseumHoursRepository). Exports MuseumHoursService:
 * other modules (tickets) sell general admission through its admitGeneral, or TimeSlotsService.admit on
 * a day with time slots, never the tables; the module that sells them counts a day's tickets for
 * GET /museum-hours/{date}/attendance through DayAttendance.
 */
@Module({
  imports: [CapacityModule],
  controllers: [MuseumHoursController],
  providers: [
    MuseumHoursService,
    MuseumHoursRepository,
    TimeSlotsService,
    TimeSlotsRepository,
    DayAttendance,
    AdmissionClaims,
  ],
  // AdmissionClaims: admissions claimed several at a time, for a sale of several places (an order).
  exports: [MuseumHoursService, TimeSlotsService, DayAttendance, AdmissionClaims],
})
export class MuseumHoursModule {
  constructor(problems: ProblemTranslators, reset: ResetRegistry) {
    reset.empties('museum-hours', [
      'museum_weekly_hours',
      'museum_hours_exceptions',
      'museum_general_admissions',
      'museum_slot_admissions',
    ]);
    // Its one row is bumped, never emptied (MuseumHoursRepository: every change of the hours).
    reset.keeps('museum-hours', ['museum_hours_revision']);
    problems.add(MUSEUM_HOURS_PROBLEMS.translate);
  }
}
