import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import type { StoredCalendarToken } from './calendar.repository.js';
import { CalendarTokensService } from './calendar-tokens.service.js';
import { CalendarTokenIdParams } from './dto/calendar-token-id-params.dto.js';
import { CalendarTokenResponse, CreatedCalendarTokenResponse } from './dto/calendar-token-response.dto.js';
import { CreateCalendarTokenDto } from './dto/create-calendar-token.dto.js';
import { ApiCreateCalendarToken, ApiDeleteCalendarToken, ApiListCalendarTokens } from './calendar.openapi.js';

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
  @ApiCreateCalendarToken()
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
  @ApiListCalendarTokens()
  async list(): Promise<CalendarTokenResponse[]> {
    return (await this.tokens.list()).map(toResponse);
  }

  @Delete(':tokenId')
  @RequiresRole('admin')
  @HttpCode(204)
  @ApiDeleteCalendarToken()
  async delete(@Param() { tokenId }: CalendarTokenIdParams): Promise<void> {
    await this.tokens.delete(tokenId);
  }
}
