import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { AnonymousRead, answeredNotModified, PublicRead, publicCacheControl } from '../common/http/public-read.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { validationProblem } from '../common/problem/problem.js';
import type { DayHoursDto } from './dto/day-hours.dto.js';
import { exceptionOf, HoursDateParams, HoursExceptionDto, HoursExceptionResponse } from './dto/hours-exception.dto.js';
import { HOURS_LIMIT, MuseumDailyHoursResponse, MuseumHoursQuery } from './dto/museum-hours-query.dto.js';
import { WeeklyHoursDto } from './dto/weekly-hours.dto.js';
import type { DayException, DayHours } from './museum-days.js';
import { MuseumHoursService, type OpenDay, type Week } from './museum-hours.service.js';

function toDayHours(hours: DayHoursDto | null): DayHours | null {
  return hours === null
    ? null
    : { timeOpen: hours.timeOpen, timeClose: hours.timeClose, capacity: hours.capacity ?? null };
}

/** A day's hours as answered: `capacity` only when the day has one. */
function dayHoursResponse(hours: DayHours | null): WeeklyHoursDto['monday'] {
  if (hours === null) return null;
  const { timeOpen, timeClose, capacity } = hours;
  return capacity === null ? { timeOpen, timeClose } : { timeOpen, timeClose, capacity };
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
  const { timeOpen, timeClose, capacity } = exception;
  return capacity === null ? { date, timeOpen, timeClose } : { date, timeOpen, timeClose, capacity };
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
    @InjectConfig() config: AppConfig,
  ) {
    this.publicCache = publicCacheControl(config.publicRead);
  }

  @Get()
  @RequiresRole('viewer')
  @PublicRead()
  @ApiOperation({
    operationId: 'getMuseumHours',
    summary: 'Get museum hours',
    description:
      'Get upcoming museum operating hours: one item per day the museum is open, from `startDate` on, in date ' +
      "order; closed days are left out. A date exception replaces its weekday's hours. Before any week is set the " +
      'museum is closed every day and the list is `[]`. At most 366 days from `startDate` are looked at.',
  })
  @ApiOkResponse({ description: 'Success.', type: MuseumDailyHoursResponse, isArray: true })
  @ApiProblemResponses(400, 401, 429, 431, 503)
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
    const body = JSON.stringify(days);
    const etag = `"h${createHash('sha256').update(body).digest().subarray(0, 16).toString('base64url')}"`;
    if (!answeredNotModified(request, response, this.publicCache, etag)) response.type('json').send(body);
  }

  @Get('weekly')
  @RequiresRole('viewer')
  @ApiOperation({
    operationId: 'getWeeklyMuseumHours',
    summary: 'Get the regular week',
    description: "Each weekday's hours, or null when the museum is closed that weekday. Before any is set, all null.",
  })
  @ApiOkResponse({ description: 'The week.', type: WeeklyHoursDto })
  @ApiProblemResponses(401, 429, 431, 503)
  async getWeek(): Promise<WeeklyHoursDto> {
    return weekResponse(await this.hours.getWeek());
  }

  @Put('weekly')
  @RequiresRole('editor')
  @ApiOperation({
    operationId: 'setWeeklyMuseumHours',
    summary: 'Set the regular week',
    description:
      'Replaces the whole week: all seven days, each `{timeOpen, timeClose, capacity?}` or null for closed. ' +
      'General tickets already sold stay valid whatever the new week says (a day given a capacity below its ' +
      'sales shows ticketsAvailable 0).',
  })
  @ApiConsumes('application/json')
  @ApiBody({ type: WeeklyHoursDto })
  @ApiOkResponse({ description: 'The week as stored.', type: WeeklyHoursDto })
  @ApiProblemResponses(400, 401, 413, 415, 429, 431, 503)
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
  @ApiOperation({
    operationId: 'setMuseumHoursException',
    summary: 'Set the hours of one date',
    description:
      'An exception to the week for one date: `{timeOpen, timeClose, capacity?}`, or `{"closed": true}`. Replaces ' +
      "the date's earlier exception. 409 when it would close a date with general tickets sold, or give it a " +
      'capacity below them.',
  })
  @ApiConsumes('application/json')
  @ApiBody({ type: HoursExceptionDto })
  @ApiOkResponse({ description: 'The exception as stored.', type: HoursExceptionResponse })
  @ApiProblemResponses(400, 401, 409, 413, 415, 429, 431, 503)
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
  @ApiOperation({
    operationId: 'deleteMuseumHoursException',
    summary: 'Remove the exception of one date',
    description: "The date's weekday hours apply again. General tickets already sold for it stay valid.",
  })
  @ApiNoContentResponse({ description: 'Removed; no body.' })
  @ApiProblemResponses(400, 401, 404, 429, 431, 503)
  async deleteException(@Param() { date }: HoursDateParams): Promise<void> {
    await this.hours.deleteException(date);
  }
}
