import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import type { StoredCalendarToken } from './calendar.repository.js';
import { CalendarTokensService } from './calendar-tokens.service.js';
import { CalendarTokenIdParams } from './dto/calendar-token-id-params.dto.js';
import { CalendarTokenResponse, CreatedCalendarTokenResponse } from './dto/calendar-token-response.dto.js';
import { CreateCalendarTokenDto } from './dto/create-calendar-token.dto.js';

const isoTime = (epochMs: number): string => new Date(epochMs).toISOString();

function toResponse(token: StoredCalendarToken): CalendarTokenResponse {
  return { tokenId: token.tokenId, description: token.description, createdAt: isoTime(token.createdAt) };
}

/**
 * Feed tokens, for the admin: a token serves the feed at a URL to whoever holds it, so making and
 * revoking them needs more than editing events.
 */
@ApiTags('Calendar')
@Controller('calendar-tokens')
export class CalendarTokensController {
  constructor(private readonly tokens: CalendarTokensService) {}

  @Post()
  @RequiresRole('admin')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createCalendarToken',
    summary: 'Create a calendar feed token',
    description:
      'Makes a token (32 random bytes, base64url) and answers with it and its feed URL, `/calendar/{token}.ics`. The ' +
      'token is shown only in this answer: the service keeps its SHA-256 alone. Not idempotent on purpose (no ' +
      'Idempotency-Key): a kept answer would keep the token. Revoke it with deleteCalendarToken.',
  })
  @ApiConsumes('application/json')
  @ApiBody({ type: CreateCalendarTokenDto })
  @ApiCreatedResponse({
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
  })
  @ApiProblemResponses(400, 401, 413, 415, 429, 431, 503)
  async create(
    @Body() body: CreateCalendarTokenDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CreatedCalendarTokenResponse> {
    const { token, stored } = await this.tokens.create(body.description ?? '');
    response.location(`/calendar-tokens/${stored.tokenId}`);
    response.setHeader('Cache-Control', 'no-store');
    return {
      tokenId: stored.tokenId,
      token,
      feedUrl: `/calendar/${token}.ics`,
      description: stored.description,
      createdAt: isoTime(stored.createdAt),
    };
  }

  @Get()
  @RequiresRole('admin')
  @ApiOperation({
    operationId: 'listCalendarTokens',
    summary: 'List calendar feed tokens',
    description: 'Every token, oldest first, without the token itself (the service does not have it).',
  })
  @ApiOkResponse({ description: 'The tokens.', type: CalendarTokenResponse, isArray: true })
  @ApiProblemResponses(401, 429, 431, 503)
  async list(): Promise<CalendarTokenResponse[]> {
    return (await this.tokens.list()).map(toResponse);
  }

  @Delete(':tokenId')
  @RequiresRole('admin')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteCalendarToken',
    summary: 'Revoke a calendar feed token',
    description: 'Deletes the token: its feed URL answers 404 from the next request on, on every instance.',
  })
  @ApiNoContentResponse({ description: 'Revoked; no body.' })
  @ApiProblemResponses(400, 401, 404, 429, 431, 503)
  async delete(@Param() { tokenId }: CalendarTokenIdParams): Promise<void> {
    await this.tokens.delete(tokenId);
  }
}
