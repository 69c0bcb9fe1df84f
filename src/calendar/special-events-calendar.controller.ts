import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { AnonymousRead, PublicRead, publicCacheControl } from '../common/http/public-read.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { CalendarFeedService } from './calendar-feed.service.js';
import { CalendarFeedQuery } from './dto/calendar-feed-query.dto.js';
import { sendFeed } from './feed-response.js';
import { ApiGetSpecialEventsCalendar } from './calendar.openapi.js';

/**
 * `GET /special-events.ics`: the events as a calendar, for callers with Basic credentials. A
 * controller of its own (not a route of SpecialEventsController), so that special-events knows
 * nothing of calendars; `/special-events.ics` is one path segment, which `/special-events` and
 * `/special-events/:eventId` never match. With public read on, also for callers without credentials:
 * the feed holds only public fields (names, places, descriptions, dates).
 */
@ApiTags('Calendar')
@Controller('special-events.ics')
export class SpecialEventsCalendarController {
  private readonly publicCache: string;

  constructor(
    private readonly feeds: CalendarFeedService,
    @InjectConfig() config: AppConfig,
  ) {
    this.publicCache = publicCacheControl(config.publicRead);
  }

  @Get()
  @RequiresRole('viewer')
  @PublicRead()
  @ApiGetSpecialEventsCalendar()
  async feed(
    @Query() query: CalendarFeedQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @AnonymousRead() anonymous: boolean,
    @Res() response: Response,
  ): Promise<void> {
    if (!anonymous) return sendFeed(this.feeds, query, ifNoneMatch, response);
    // The same bytes as an authenticated caller's, so the same tag; but shared caches may keep it.
    response.vary('Authorization');
    await sendFeed(this.feeds, query, ifNoneMatch, response, this.publicCache);
  }
}
