import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { CachePolicy, REVALIDATED_CACHE_CONTROL } from '../common/http/cache-policy.js';
import { ifNoneMatchFound } from '../common/http/entity-tags.js';
import { AnonymousRead, answeredNotModified, PublicRead, publicCacheControl } from '../common/http/public-read.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { CreateSpecialEventDto } from './dto/create-special-event.dto.js';
import { EventIdParams } from './dto/event-id-params.dto.js';
import { ListSpecialEventsQuery } from './dto/list-special-events-query.dto.js';
import { SpecialEventResponse } from './dto/special-event-response.dto.js';
import { UpdateSpecialEventDto } from './dto/update-special-event.dto.js';
import { EventIdUnchangedGuard } from './event-id-unchanged.guard.js';
import {
  etagOf,
  type ListPage,
  publicEtagOf,
  publicListEtagOf,
  SpecialEventsService,
  toPublicResponse,
  toResponse,
} from './special-events.service.js';

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

@ApiTags('Special events')
@Controller('special-events')
export class SpecialEventsController {
  private readonly publicCache: string;

  constructor(
    private readonly events: SpecialEventsService,
    @InjectConfig() config: AppConfig,
  ) {
    this.publicCache = publicCacheControl(config.publicRead);
  }

  @Get()
  @RequiresRole('viewer')
  @PublicRead()
  @ApiOperation({
    operationId: 'listSpecialEvents',
    summary: 'List special events',
    description:
      'Events with at least one ISO date (`YYYY-MM-DD`, or the date part of an ISO date-time) in the closed range ' +
      '[startDate, endDate]; either bound may be omitted, and without both every event is listed (free-text dates ' +
      "never match a range). Ordered by the earliest of the event's ISO dates within the range (without a range: its " +
      'earliest ISO date), then eventId; events without ISO dates come last. Every page that has a next one carries ' +
      '`Link: <…>; rel="next"` with an opaque `cursor` (keyset paging): following it visits every matching event once, ' +
      'even while events are created and deleted, at the same cost on every page.',
  })
  @ApiOkResponse({
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
  })
  @ApiProblemResponses(400, 401, 429, 431, 503)
  async list(
    @Query() query: ListSpecialEventsQuery,
    @AnonymousRead() anonymous: boolean,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const page = await this.events.list(query);
    if (page.nextCursor !== undefined)
      response.setHeader('Link', `<${nextPageLink(page, page.nextCursor)}>; rel="next"`);
    if (!anonymous) response.json(page.events.map(toResponse));
    else if (!answeredNotModified(request, response, this.publicCache, publicListEtagOf(page)))
      response.json(page.events.map(toPublicResponse));
  }

  @Post()
  @RequiresRole('editor')
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({
    operationId: 'createSpecialEvent',
    summary: 'Create a special event',
    description:
      'Stores the event and answers with it as stored, once it is durable. Without `eventId` (or with null) the ' +
      'service generates a UUIDv7; an `eventId` that already exists is a 409 and leaves the stored event unchanged. ' +
      'Every failing field is named in a 400; unknown properties are rejected.',
  })
  @ApiConsumes('application/json')
  @ApiBody({ type: CreateSpecialEventDto })
  @ApiCreatedResponse({
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
  })
  @ApiProblemResponses(
    400,
    401,
    {
      status: 409,
      description: 'An event with this eventId already exists; the stored event is unchanged.',
      detail: 'A special event with eventId dad4bce8-f5cb-4078-a211-995864315e39 already exists.',
    },
    413,
    415,
    429,
    431,
    503,
  )
  async create(
    @Body() body: CreateSpecialEventDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SpecialEventResponse> {
    const event = await this.events.create(body);
    response.location(`/special-events/${event.eventId}`);
    response.setHeader('ETag', etagOf(event));
    return toResponse(event);
  }

  @Get(':eventId')
  @RequiresRole('viewer')
  @PublicRead()
  @CachePolicy(REVALIDATED_CACHE_CONTROL)
  @ApiOperation({
    operationId: 'getSpecialEvent',
    summary: 'Get special event',
    description:
      'The event as stored, with its ETag. With `If-None-Match` naming the current tag, `304 Not Modified` and no body.',
  })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: 'An ETag from an earlier answer: 304 while it is current.',
  })
  @ApiOkResponse({ description: 'The event as stored.', type: SpecialEventResponse, headers: ETAG_HEADER })
  @ApiResponse({
    status: 304,
    description: 'Not modified: the If-None-Match tag is current. No body.',
    headers: ETAG_HEADER,
  })
  @ApiProblemResponses(400, 401, 404, 429, 431, 503)
  async get(
    @Param() { eventId }: EventIdParams,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @AnonymousRead() anonymous: boolean,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const event = await this.events.get(eventId);
    if (anonymous) {
      if (!answeredNotModified(request, response, this.publicCache, publicEtagOf(event)))
        response.json(toPublicResponse(event));
      return;
    }
    const etag = etagOf(event);
    response.setHeader('ETag', etag);
    // Decided here rather than by Express (req.fresh), which ignores If-None-Match when the
    // request says Cache-Control: no-cache, as fetch() does whenever a conditional header is set.
    if (ifNoneMatch !== undefined && ifNoneMatchFound(ifNoneMatch, etag)) response.status(304).end();
    else response.json(toResponse(event));
  }

  @Patch(':eventId')
  @RequiresRole('editor')
  @Idempotent()
  @ApiOperation({
    operationId: 'updateSpecialEvent',
    summary: 'Update special event',
    description:
      'A JSON merge patch (RFC 7396) of the event, also accepted as `application/json` (the Museum API): every field ' +
      'is optional and follows the create rule when given; `dates` replaces the list. `null` is refused for every ' +
      "field but `eventId` (where it means absent); `eventId`, when given, must be the path's. An empty patch is a " +
      '400. With `If-Match`, the update applies only if the tag is current (else 412; for an event with a capacity a ' +
      'ticket sold since makes the tag stale too); the database decides between concurrent updates. `capacity: null` ' +
      'removes the limit; a `capacity` below the tickets already sold is a 409 and changes nothing, and so is `dates` ' +
      'without an ISO date that active tickets are sold for (`urn:museum:problem:dates-have-tickets`).',
  })
  @ApiConsumes(MERGE_PATCH_MEDIA_TYPE, 'application/json')
  @ApiBody({ type: UpdateSpecialEventDto })
  @ApiHeader({ name: 'If-Match', required: false, description: 'The ETag the change is based on; stale: 412.' })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: '`*` (or the current ETag): 412 when the event exists (or is as named), nothing changed.',
  })
  @ApiOkResponse({
    description: 'Updated; the body is the event as stored, with its new ETag.',
    type: SpecialEventResponse,
    headers: { ...ETAG_HEADER, ...REPLAYED_HEADER },
  })
  @ApiProblemResponses(
    400,
    401,
    404,
    {
      status: 409,
      description:
        'The capacity given is below the tickets already sold, or the new `dates` leave out a date that active tickets ' +
        'are sold for (`urn:museum:problem:dates-have-tickets`, the detail names the dates); the stored event is ' +
        'unchanged.',
      detail:
        'capacity 10 is below the 12 tickets already sold for this event; give at least 12, or null for no limit. Nothing was changed.',
    },
    412,
    413,
    415,
    429,
    431,
    503,
  )
  @UseGuards(EventIdUnchangedGuard)
  async update(
    @Param() { eventId }: EventIdParams,
    @Body() body: UpdateSpecialEventDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SpecialEventResponse> {
    const event = await this.events.update(eventId, body, ifMatch, ifNoneMatch);
    response.setHeader('ETag', etagOf(event));
    return toResponse(event);
  }

  @Delete(':eventId')
  @RequiresRole('editor')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteSpecialEvent',
    summary: 'Delete a special event',
    description:
      'Deletes the event; its `eventId` may then be used again by a later create. The letter case of the UUID ' +
      'does not matter. An event that never existed or is already deleted is a 404. With `If-Match`, only the ' +
      'event as that tag names it (`*`: any); otherwise 412 and nothing is deleted (the database decides).',
  })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The ETag the delete is based on (`*`: any); stale: 412, nothing deleted.',
  })
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiProblemResponses(400, 401, 404, 412, 429, 431, 503)
  async delete(@Param() { eventId }: EventIdParams, @Headers('if-match') ifMatch: string | undefined): Promise<void> {
    await this.events.delete(eventId, ifMatch);
  }
}

/** The next page's link, relative to the service (RFC 8288 resolves it against the request). */
function nextPageLink(page: ListPage, cursor: string): string {
  const parameters = new URLSearchParams();
  if (page.range.start !== undefined) parameters.set('startDate', page.range.start);
  if (page.range.end !== undefined) parameters.set('endDate', page.range.end);
  parameters.set('limit', String(page.limit));
  parameters.set('cursor', cursor);
  return `/special-events?${parameters.toString()}`;
}
