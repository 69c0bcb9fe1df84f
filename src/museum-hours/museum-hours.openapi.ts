import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { DayAttendanceResponse } from './dto/day-attendance-response.dto.js';
import { HoursExceptionDto, HoursExceptionResponse } from './dto/hours-exception.dto.js';
import { MuseumDailyHoursResponse } from './dto/museum-hours-query.dto.js';
import { SlotResponse } from './dto/slot-response.dto.js';
import { WeeklyHoursDto } from './dto/weekly-hours.dto.js';
import { MUSEUM_HOURS_PROBLEMS } from './museum-hours.problems.js';

/** The museum-hours operations as the OpenAPI document describes them; the controller holds the routes. */

export const ApiGetMuseumHours = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getMuseumHours',
      summary: 'Get museum hours',
      description:
        'Get upcoming museum operating hours: one item per day the museum is open, from `startDate` on, in date ' +
        "order; closed days are left out. A date exception replaces its weekday's hours. Before any week is set the " +
        'museum is closed every day and the list is `[]`. At most 366 days from `startDate` are looked at.',
    }),
    ApiOkResponse({ description: 'Success.', type: MuseumDailyHoursResponse, isArray: true }),
    ApiProblemResponses(400, 401, 429, 431, 503),
  );

export const ApiGetWeeklyMuseumHours = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getWeeklyMuseumHours',
      summary: 'Get the regular week',
      description: "Each weekday's hours, or null when the museum is closed that weekday. Before any is set, all null.",
    }),
    ApiOkResponse({ description: 'The week.', type: WeeklyHoursDto }),
    ApiProblemResponses(401, 429, 431, 503),
  );

export const ApiSetWeeklyMuseumHours = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'setWeeklyMuseumHours',
      summary: 'Set the regular week',
      description:
        'Replaces the whole week: all seven days, each `{timeOpen, timeClose, capacity?}` or null for closed. ' +
        'General tickets already sold stay valid whatever the new week says (a day given a capacity below its ' +
        'sales shows ticketsAvailable 0).',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: WeeklyHoursDto }),
    ApiOkResponse({ description: 'The week as stored.', type: WeeklyHoursDto }),
    ApiProblemResponses(400, 401, 413, 415, 429, 431, 503),
  );

export const ApiSetMuseumHoursException = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'setMuseumHoursException',
      summary: 'Set the hours of one date',
      description:
        'An exception to the week for one date: `{timeOpen, timeClose, capacity?}`, or `{"closed": true}`. Replaces ' +
        "the date's earlier exception. 409 when it would close a date with general tickets sold, or give it a " +
        'capacity below them.',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: HoursExceptionDto }),
    ApiOkResponse({ description: 'The exception as stored.', type: HoursExceptionResponse }),
    ApiProblemResponses(
      400,
      401,
      MUSEUM_HOURS_PROBLEMS.response(['tickets-sold-on-closing', 'tickets-sold-above-capacity']),
      413,
      415,
      429,
      431,
      503,
    ),
  );

export const ApiDeleteMuseumHoursException = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'deleteMuseumHoursException',
      summary: 'Remove the exception of one date',
      description: "The date's weekday hours apply again. General tickets already sold for it stay valid.",
    }),
    ApiNoContentResponse({ description: 'Removed; no body.' }),
    ApiProblemResponses(400, 401, MUSEUM_HOURS_PROBLEMS.response(['no-exception']), 429, 431, 503),
  );

export const ApiGetMuseumSlots = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getMuseumSlots',
      summary: "Get a day's time slots",
      description:
        "The date's general-admission time slots, when its hours (its exception's, else its weekday's) carry " +
        '`slotMinutes` and `slotCapacity`: one starting at `timeOpen` and every `slotMinutes` after it, the last ' +
        'starting before `timeClose`, each with what is left of it. `[]` for an open day without slots; a 404 for a ' +
        'closed day. A general ticket for a day with slots names one of these times as `ticketTime`.',
    }),
    ApiOkResponse({ description: "The day's slots, in time order.", type: SlotResponse, isArray: true }),
    ApiProblemResponses(400, 401, MUSEUM_HOURS_PROBLEMS.response(['closed-day']), 429, 431, 503),
  );

export const ApiGetMuseumAttendance = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getMuseumAttendance',
      summary: "Get a day's general-admission attendance",
      description:
        "A list of one: the date's general tickets, `sold` (held: active or checked in), `checkedIn` (of those, " +
        'scanned at the door) and `cancelled`, with `slots` (the same per slot start) when the day has time slots. ' +
        'Any date may be asked: a day without tickets answers zeros, a closed day the tickets sold before it closed. ' +
        'For viewers and up; never for anonymous callers.',
    }),
    ApiOkResponse({ description: "The day's tickets.", type: DayAttendanceResponse, isArray: true }),
    ApiProblemResponses(400, 401, 429, 431, 503),
  );
