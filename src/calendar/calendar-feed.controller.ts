import { Controller, Get, Headers, Query, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/http/public.decorator.js';
import { CalendarFeedService } from './calendar-feed.service.js';
import { CalendarTokenGuard } from './calendar-token.guard.js';
import { CalendarFeedQuery } from './dto/calendar-feed-query.dto.js';
import { sendFeed } from './feed-response.js';
import { ApiGetCalendarFeed } from './calendar.openapi.js';

/**
 * `GET /calendar/{token}.ics`: the same feed for calendar applications that cannot send Basic
 * credentials. Public; the token in the path is the credential (CalendarTokenGuard), and it is
 * kept out of every answer and log line (hideFeedToken).
 */
@ApiTags('Calendar')
@Public()
@Controller('calendar')
export class CalendarFeedController {
  constructor(private readonly feeds: CalendarFeedService) {}

  @Get(':token.ics')
  @UseGuards(CalendarTokenGuard)
  @ApiGetCalendarFeed()
  async feed(
    @Query() query: CalendarFeedQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    await sendFeed(this.feeds, query, ifNoneMatch, response);
  }
}
