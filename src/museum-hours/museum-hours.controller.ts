import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { AnonymousRead, answeredNotModified, PublicRead, publicCacheControl } from '../common/http/public-read.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { validationProblem } from '../common/problem/problem.js';
import { DayAttendance, type DayAttendanceAnswer } from './day-attendance.js';
import { type DayHoursDto, slotGridOf } from './dto/day-hours.dto.js';
import { exceptionOf, HoursDateParams, HoursExceptionDto, HoursExceptionResponse } from './dto/hours-exception.dto.js';
import { HOURS_LIMIT, MuseumHoursQuery } from './dto/museum-hours-query.dto.js';
import { WeeklyHoursDto } from './dto/weekly-hours.dto.js';
import type { DayException, DayHours } from './museum-days.js';
import { MuseumHoursService, type OpenDay, type Week } from './museum-hours.service.js';
import { type Slot, TimeSlotsService } from './time-slots.service.js';
import {
  ApiDeleteMuseumHoursException,
  ApiGetMuseumAttendance,
  ApiGetMuseumHours,
  ApiGetMuseumSlots,
  ApiGetWeeklyMuseumHours,
  ApiSetMuseumHoursException,
  ApiSetWeeklyMuseumHours,
} from './museum-hours.openapi.js';

function toDayHours(hours: DayHoursDto | null): DayHours | null {
  if (hours === null) return null;
  const slots = slotGridOf(hours.slotMinutes, hours.slotCapacity);
  return {
    timeOpen: hours.timeOpen,
    timeClose: hours.timeClose,
    capacity: hours.capacity ?? null,
    ...(slots ? { slots } : {}),
  };
}

/** A day's hours as answered: `capacity` only when the day has one, the slot fields only when it has slots. */
function dayHoursResponse(hours: DayHours | null): WeeklyHoursDto['monday'] {
  if (hours === null) return null;
  const { timeOpen, timeClose, capacity, slots } = hours;
  return {
    timeOpen,
    timeClose,
    ...(capacity === null ? {} : { capacity }),
    ...(slots ? { slotMinutes: slots.minutes, slotCapacity: slots.capacity } : {}),
  };
}

function weekResponse(week: Week): WeeklyHoursDto {
  return {
    monday: dayHoursResponse(week.monday),
    tuesday: dayHoursResponse(week.tuesday),
    wednesday: dayHoursResponse(week.wednesday),
    thursday: dayHoursResponse(week.thursday),
    friday: dayHoursResponse(week.friday),
    saturday: dayHoursResponse(week.saturday),
    sunday: dayHoursResponse(week.sunday),
  };
}

function exceptionResponse(date: string, exception: DayException): HoursExceptionResponse {
  if (exception.closed) return { date, closed: true };
  const { timeOpen, timeClose, capacity, slots } = exception;
  return {
    date,
    timeOpen,
    timeClose,
    ...(capacity === null ? {} : { capacity }),
    ...(slots ? { slotMinutes: slots.minutes, slotCapacity: slots.capacity } : {}),
  };
}

/**
 * The museum's opening hours: the Museum API's getMuseumHours, and the write side it does not
 * have (the regular week, and exceptions for single dates), for editors and admins.
 */
@ApiTags('Museum hours')
@Controller('museum-hours')
export class MuseumHoursController {
  private readonly publicCache: string;

  constructor(
    private readonly hours: MuseumHoursService,
    private readonly slots: TimeSlotsService,
    private readonly attendance: DayAttendance,
    @InjectConfig() config: AppConfig,
  ) {
    this.publicCache = publicCacheControl(config.publicRead);
  }

  @Get()
  @RequiresRole('viewer')
  @PublicRead()
  @ApiGetMuseumHours()
  async list(
    @Query() query: MuseumHoursQuery,
    @AnonymousRead() anonymous: boolean,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const days: OpenDay[] = await this.hours.list(query.startDate, query.page ?? 1, query.limit ?? HOURS_LIMIT.default);
    if (!anonymous) {
      response.json(days);
      return;
    }
    // At most 30 short days: their JSON is the cheapest exact validator, and the page is the answer.
    this.sendPublic(request, response, JSON.stringify(days));
  }

  @Get(':date/slots')
  @RequiresRole('viewer')
  @PublicRead()
  @ApiGetMuseumSlots()
  async slotsOf(
    @Param() { date }: HoursDateParams,
    @AnonymousRead() anonymous: boolean,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const slots: Slot[] = await this.slots.list(date);
    if (anonymous) this.sendPublic(request, response, JSON.stringify(slots));
    else response.json(slots);
  }

  /** Not a public read: what was sold and who came are for staff. */
  @Get(':date/attendance')
  @RequiresRole('viewer')
  @ApiGetMuseumAttendance()
  async attendanceOf(@Param() { date }: HoursDateParams): Promise<DayAttendanceAnswer[]> {
    return [await this.attendance.of(date)];
  }

  /** A short public answer: its JSON is the cheapest exact validator (every sale changes it). */
  private sendPublic(request: Request, response: Response, body: string): void {
    const etag = `"h${createHash('sha256').update(body).digest().subarray(0, 16).toString('base64url')}"`;
    if (!answeredNotModified(request, response, this.publicCache, etag)) response.type('json').send(body);
  }

  @Get('weekly')
  @RequiresRole('viewer')
  @ApiGetWeeklyMuseumHours()
  async getWeek(): Promise<WeeklyHoursDto> {
    return weekResponse(await this.hours.getWeek());
  }

  @Put('weekly')
  @RequiresRole('editor')
  @ApiSetWeeklyMuseumHours()
  async setWeek(@Body() body: WeeklyHoursDto): Promise<WeeklyHoursDto> {
    const week: Week = {
      monday: toDayHours(body.monday),
      tuesday: toDayHours(body.tuesday),
      wednesday: toDayHours(body.wednesday),
      thursday: toDayHours(body.thursday),
      friday: toDayHours(body.friday),
      saturday: toDayHours(body.saturday),
      sunday: toDayHours(body.sunday),
    };
    return weekResponse(await this.hours.setWeek(week));
  }

  @Put(':date')
  @RequiresRole('editor')
  @ApiSetMuseumHoursException()
  async setException(
    @Param() { date }: HoursDateParams,
    @Body() body: HoursExceptionDto,
  ): Promise<HoursExceptionResponse> {
    const exception = exceptionOf(body);
    if (Array.isArray(exception)) throw validationProblem(exception);
    return exceptionResponse(date, await this.hours.setException(date, exception));
  }

  @Delete(':date')
  @RequiresRole('editor')
  @HttpCode(204)
  @ApiDeleteMuseumHoursException()
  async deleteException(@Param() { date }: HoursDateParams): Promise<void> {
    await this.hours.deleteException(date);
  }
}
