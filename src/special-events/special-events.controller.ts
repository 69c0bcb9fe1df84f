import { All, Body, Controller, Delete, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiNoContentResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { JsonBody } from '../common/http/json-body.js';
import { Idempotent } from '../common/idempotency/idempotent.decorator.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { ProblemException } from '../common/problem/problem.js';
import { CreateSpecialEventDto } from './dto/create-special-event.dto.js';
import { EventIdParams } from './dto/event-id.params.js';
import { SpecialEventResponse } from './dto/special-event.response.js';
import { SpecialEventsService } from './special-events.service.js';

@ApiTags('Special events')
@ApiBasicAuth()
@Controller('special-events')
export class SpecialEventsController {
  constructor(private readonly events: SpecialEventsService) {}

  @Post()
  @RequiresRole('editor')
  @HttpCode(201)
  @Idempotent()
  @JsonBody()
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
      Location: { description: 'Path of the new event: /special-events/{eventId}', required: true, schema: { type: 'string' } },
      'Idempotent-Replayed': {
        description: 'Sent as `true` when this is the kept response of an earlier request with the same Idempotency-Key.',
        required: false,
        schema: { type: 'string', enum: ['true'] },
      },
    },
  })
  @ApiProblemResponses(400, 401, 409, 413, 415, 429, 431, 503)
  async create(
    @Body() body: CreateSpecialEventDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SpecialEventResponse> {
    const event = await this.events.create(body);
    response.location(`/special-events/${event.eventId}`);
    return event;
  }

  @Delete(':eventId')
  @RequiresRole('editor')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteSpecialEvent',
    summary: 'Delete a special event',
    description:
      'Deletes the event; its `eventId` may then be used again by a later create. The letter case of the UUID ' +
      'does not matter. An event that never existed or is already deleted is a 404.',
  })
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiProblemResponses(400, 401, 404, 429, 431, 503)
  async delete(@Param() { eventId }: EventIdParams): Promise<void> {
    await this.events.delete(eventId);
  }

  /**
   * Other methods on these paths, and deeper paths, answer 405/404 only after authentication,
   * so an anonymous caller learns nothing about /special-events. Any role gets the same answer:
   * no role could do more there, so a 403 would only mislead.
   */
  @All()
  @RequiresRole('viewer')
  @ApiExcludeEndpoint()
  collectionOtherMethods(@Req() request: Request): never {
    throw methodNotAllowed(request, 'POST');
  }

  @All(':eventId')
  @RequiresRole('viewer')
  @ApiExcludeEndpoint()
  itemOtherMethods(@Req() request: Request): never {
    throw methodNotAllowed(request, 'DELETE');
  }

  @All(':eventId/*rest')
  @RequiresRole('viewer')
  @ApiExcludeEndpoint()
  deeperPaths(): never {
    throw new ProblemException(404, 'No resource exists at this path.');
  }
}

function methodNotAllowed(request: Request, allow: string): ProblemException {
  return new ProblemException(405, `${request.method} is not supported here; use ${allow}.`, {
    headers: { Allow: allow },
  });
}
