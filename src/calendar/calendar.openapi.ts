import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { CALENDAR_PROBLEMS } from './calendar.problems.js';
import { CalendarTokenResponse, CreatedCalendarTokenResponse } from './dto/calendar-token-response.dto.js';
import { CreateCalendarTokenDto } from './dto/create-calendar-token.dto.js';
import { ApiFeedResponses } from './feed-response.js';

/** The calendar operations as the OpenAPI document describes them; the controller holds the routes. */

export const ApiCreateCalendarToken = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'createCalendarToken',
      summary: 'Create a calendar feed token',
      description:
        'Makes a token (32 random bytes, base64url) and answers with it and its feed URL, `/calendar/{token}.ics`. The ' +
        'token is shown only in this answer: the service keeps its SHA-256 alone. Not idempotent on purpose (no ' +
        'Idempotency-Key): a kept answer would keep the token. Revoke it with deleteCalendarToken.',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: CreateCalendarTokenDto }),
    ApiCreatedResponse({
      description: 'Created; the only answer that holds the token.',
      type: CreatedCalendarTokenResponse,
      headers: {
        Location: {
          description: 'Path of the token: /calendar-tokens/{tokenId} (where it is deleted).',
          required: true,
          schema: { type: 'string' },
        },
        'Cache-Control': {
          description: 'Always `no-store`: the body holds the token.',
          required: true,
          schema: { type: 'string' },
        },
      },
    }),
    ApiProblemResponses(400, 401, 413, 415, 429, 431, 503),
  );

export const ApiListCalendarTokens = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'listCalendarTokens',
      summary: 'List calendar feed tokens',
      description: 'Every token, oldest first, without the token itself (the service does not have it).',
    }),
    ApiOkResponse({ description: 'The tokens.', type: CalendarTokenResponse, isArray: true }),
    ApiProblemResponses(401, 429, 431, 503),
  );

export const ApiDeleteCalendarToken = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'deleteCalendarToken',
      summary: 'Revoke a calendar feed token',
      description: 'Deletes the token: its feed URL answers 404 from the next request on, on every instance.',
    }),
    ApiNoContentResponse({ description: 'Revoked; no body.' }),
    ApiProblemResponses(400, 401, CALENDAR_PROBLEMS.response(['no-token']), 429, 431, 503),
  );
export const ApiGetCalendarFeed = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getCalendarFeed',
      summary: 'Special events as an iCalendar feed, by token',
      description:
        'getSpecialEventsCalendar for a URL that holds a calendar token (createCalendarToken) instead of credentials. ' +
        'A malformed, unknown or revoked token is a 404; a token deleted is refused from the next request on.',
    }),
    ApiFeedResponses(),
    ApiParam({
      name: 'token',
      type: String,
      description: 'A calendar token, as createCalendarToken returned it.',
      example: 'q3J9x0m2V8bQz1Yt5Lw7Nf4Hc6Kd0Rs2Pa9Ue3Ig8Oj',
    }),
    ApiProblemResponses(400, CALENDAR_PROBLEMS.response(['unknown-feed-token']), 431, 503),
  );

export const ApiGetSpecialEventsCalendar = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getSpecialEventsCalendar',
      summary: 'Special events as an iCalendar feed',
      description:
        'The events with an ISO date in [startDate, endDate] (both optional, as on listSpecialEvents) as an RFC 5545 ' +
        'calendar: one all-day VEVENT per ISO date in the range, UID `{eventId}-{YYYYMMDD}@museum-special-events`. It ' +
        'holds at most 10,000 events and 16 MiB of VEVENTs; `X-MUSEUM-TRUNCATED` says when a bound was reached. For ' +
        'calendar applications that cannot send credentials, see createCalendarToken.',
    }),
    ApiFeedResponses(),
    ApiProblemResponses(400, 401, 429, 431, 503),
  );
