import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
} from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { CreateSpecialEventDto } from './dto/create-special-event.dto.js';
import { DateAvailabilityResponse } from './dto/date-availability-response.dto.js';
import { SpecialEventResponse } from './dto/special-event-response.dto.js';
import { UpdateSpecialEventDto } from './dto/update-special-event.dto.js';
import { SPECIAL_EVENT_PROBLEMS } from './special-events.problems.js';

/** The special-events operations as the OpenAPI document describes them; the controller holds the routes. */

const NOT_FOUND = SPECIAL_EVENT_PROBLEMS.response(['not-found']);

const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json';

const ETAG_HEADER = {
  ETag: {
    description:
      'Strong entity tag of the event as stored; it changes on every update and, for an event with a capacity, on ' +
      'every ticket sold (its ticketsAvailable). Send it back in If-Match.',
    required: true,
    schema: { type: 'string' },
  },
} as const;

const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: 'Sent as `true` when this is the kept response of an earlier request with the same Idempotency-Key.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

export const ApiListSpecialEvents = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'listSpecialEvents',
      summary: 'List special events',
      description:
        'Events with at least one ISO date (`YYYY-MM-DD`, or the date part of an ISO date-time) in the closed range ' +
        '[startDate, endDate]; either bound may be omitted, and without both every event is listed (free-text dates ' +
        "never match a range). Ordered by the earliest of the event's ISO dates within the range (without a range: its " +
        'earliest ISO date), then eventId; events without ISO dates come last. Every page that has a next one carries ' +
        '`Link: <…>; rel="next"` with an opaque `cursor` (keyset paging): following it visits every matching event once, ' +
        'even while events are created and deleted, at the same cost on every page.',
    }),
    ApiOkResponse({
      description: 'The page of events (an empty array past the last one).',
      type: SpecialEventResponse,
      isArray: true,
      headers: {
        Link: {
          description: 'RFC 8288 `<…>; rel="next"`: the next page, by cursor; absent on the last page.',
          required: false,
          schema: { type: 'string' },
        },
      },
    }),
    ApiProblemResponses(400, 401, 429, 431, 503),
  );

export const ApiCreateSpecialEvent = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'createSpecialEvent',
      summary: 'Create a special event',
      description:
        'Stores the event and answers with it as stored, once it is durable. Without `eventId` (or with null) the ' +
        'service generates a UUIDv7; an `eventId` that already exists is a 409 and leaves the stored event unchanged. ' +
        'Every failing field is named in a 400; unknown properties are rejected.',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: CreateSpecialEventDto }),
    ApiCreatedResponse({
      description: 'Created; the body is the event as stored.',
      type: SpecialEventResponse,
      headers: {
        Location: {
          description: 'Path of the new event: /special-events/{eventId}',
          required: true,
          schema: { type: 'string' },
        },
        ...ETAG_HEADER,
        ...REPLAYED_HEADER,
      },
    }),
    ApiProblemResponses(400, 401, SPECIAL_EVENT_PROBLEMS.response(['exists']), 413, 415, 429, 431, 503),
  );

export const ApiGetSpecialEvent = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getSpecialEvent',
      summary: 'Get special event',
      description:
        'The event as stored, with its ETag. With `If-None-Match` naming the current tag, `304 Not Modified` and no body.',
    }),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'An ETag from an earlier answer: 304 while it is current.',
    }),
    ApiOkResponse({ description: 'The event as stored.', type: SpecialEventResponse, headers: ETAG_HEADER }),
    ApiResponse({
      status: 304,
      description: 'Not modified: the If-None-Match tag is current. No body.',
      headers: ETAG_HEADER,
    }),
    ApiProblemResponses(400, 401, NOT_FOUND, 429, 431, 503),
  );

export const ApiGetSpecialEventAvailability = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getSpecialEventAvailability',
      summary: "Get a special event's seats per date",
      description:
        'Each ISO date item of the event (as stored, in its order; free text sells no ticket) with the tickets sold ' +
        "for its date and what is still for sale: the smaller of the date's seats left (`capacityPerDate`) and the " +
        "event's (`capacity`), null without either limit. The sessions of one date share its seats.",
    }),
    ApiOkResponse({ description: "The event's dates and their seats.", type: DateAvailabilityResponse, isArray: true }),
    ApiProblemResponses(400, 401, NOT_FOUND, 429, 431, 503),
  );

export const ApiUpdateSpecialEvent = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'updateSpecialEvent',
      summary: 'Update special event',
      description:
        'A JSON merge patch (RFC 7396) of the event, also accepted as `application/json` (the Museum API): every field ' +
        'is optional and follows the create rule when given; `dates` replaces the list. `null` is refused for every ' +
        "field but `eventId` (where it means absent); `eventId`, when given, must be the path's. An empty patch is a " +
        '400. With `If-Match`, the update applies only if the tag is current (else 412; for an event with a capacity a ' +
        'ticket sold since makes the tag stale too); the database decides between concurrent updates. `capacity: null` ' +
        'removes the limit; a `capacity` below the tickets already sold is a 409 and changes nothing, and so is a ' +
        '`capacityPerDate` below the tickets sold on one of the dates, and `dates` ' +
        'without an ISO date that active tickets are sold for (`urn:museum:problem:dates-have-tickets`).',
    }),
    ApiConsumes(MERGE_PATCH_MEDIA_TYPE, 'application/json'),
    ApiBody({ type: UpdateSpecialEventDto }),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: '`*` (or the current ETag): 412 when the event exists (or is as named), nothing changed.',
    }),
    ApiHeader({ name: 'If-Match', required: false, description: 'The ETag the change is based on; stale: 412.' }),
    ApiOkResponse({
      description: 'Updated; the body is the event as stored, with its new ETag.',
      type: SpecialEventResponse,
      headers: { ...ETAG_HEADER, ...REPLAYED_HEADER },
    }),
    ApiProblemResponses(
      400,
      401,
      NOT_FOUND,
      SPECIAL_EVENT_PROBLEMS.response(
        ['capacity-below-sold', 'capacity-per-date-below-sold', 'dates-have-tickets'],
        'The stored event is unchanged.',
      ),
      SPECIAL_EVENT_PROBLEMS.response(['stale-if-match', 'if-none-match-current']),
      413,
      415,
      429,
      431,
      503,
    ),
  );

export const ApiDeleteSpecialEvent = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'deleteSpecialEvent',
      summary: 'Delete a special event',
      description:
        'Deletes the event; its `eventId` may then be used again by a later create. The letter case of the UUID ' +
        'does not matter. An event that never existed or is already deleted is a 404. With `If-Match`, only the ' +
        'event as that tag names it (`*`: any); otherwise 412 and nothing is deleted (the database decides).',
    }),
    ApiHeader({
      name: 'If-Match',
      required: false,
      description: 'The ETag the delete is based on (`*`: any); stale: 412, nothing deleted.',
    }),
    ApiNoContentResponse({ description: 'Deleted; no body.' }),
    ApiProblemResponses(400, 401, NOT_FOUND, SPECIAL_EVENT_PROBLEMS.response(['stale-if-match']), 429, 431, 503),
  );
