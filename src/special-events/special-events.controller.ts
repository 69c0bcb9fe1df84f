import { Body, Controller, Delete, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { CreateSpecialEventDto } from './dto/create-special-event.dto.js';
import { EventIdParams } from './dto/event-id-params.dto.js';
import { SpecialEventResponse } from './dto/special-event-response.dto.js';
import { SpecialEventsService } from './special-events.service.js';

@ApiTags('Special events')
@Controller('special-events')
export class SpecialEventsController {
  constructor(private readonly events: SpecialEventsService) {}

  @Post()
  @HttpCode(201)
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
    return event;
  }

  @Delete(':eventId')
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
}
