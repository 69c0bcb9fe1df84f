import { Injectable } from '@nestjs/common';
import { SpecialEventsService } from '../special-events/special-events.service.js';
import { CalendarEventStamps } from './calendar-event-stamps.js';
import { collectEvents, FEED_PAGE_SIZE, type FeedRange, renderFeed, type RenderedFeed } from './calendar-feed.js';

/**
 * The feed of the events in a date range, built from what SpecialEventsModule exports: its list,
 * page by page along the cursors, exactly as a client would read it (the range is validated
 * there, so the feed refuses what the list refuses), and the module's own stamps.
 */
@Injectable()
export class CalendarFeedService {
  constructor(
    private readonly events: SpecialEventsService,
    private readonly stamps: CalendarEventStamps,
  ) {}

  async feed(range: FeedRange): Promise<RenderedFeed> {
    const generatedAt = Date.now();
    const collected = await collectEvents(
      (cursor) =>
        this.events.list({ startDate: range.startDate, endDate: range.endDate, limit: FEED_PAGE_SIZE, cursor }),
      (eventIds) => this.stamps.read(eventIds),
    );
    return renderFeed(collected, range, generatedAt);
  }
}
