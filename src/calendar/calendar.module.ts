import { type MiddlewareConsumer, Module, type NestModule, type OnModuleInit, RequestMethod } from '@nestjs/common';
import { ProblemTranslators } from '../common/problem/problem-translators.js';
import { SpecialEventsModule } from '../special-events/special-events.module.js';
import { EventWriteParticipants } from '../special-events/event-write-participants.js';
import { CalendarEventStamps, CalendarTokens } from './calendar.repository.js';
import { CalendarFeedController } from './calendar-feed.controller.js';
import { CalendarFeedService } from './calendar-feed.service.js';
import { CalendarTokenGuard } from './calendar-token.guard.js';
import { CalendarTokensController } from './calendar-tokens.controller.js';
import { CalendarTokensService } from './calendar-tokens.service.js';
import { hideFeedToken } from './feed-token-path.js';
import { SpecialEventsCalendarController } from './special-events-calendar.controller.js';
import { CALENDAR_PROBLEMS } from './calendar.problems.js';
import { ResetRegistry } from '../database/reset-registry.js';

/**
 * The calendar feed of special events (docs/api.md, Calendar feed). Built on what
 * SpecialEventsModule exports, its service's list and a place in its writes' transactions, and
 * on tables of its own (calendar_event_stamps, calendar_tokens); special-events knows nothing of it.
 */
@Module({
  imports: [SpecialEventsModule],
  controllers: [SpecialEventsCalendarController, CalendarFeedController, CalendarTokensController],
  providers: [CalendarFeedService, CalendarEventStamps, CalendarTokens, CalendarTokensService, CalendarTokenGuard],
})
export class CalendarModule implements NestModule, OnModuleInit {
  constructor(
    private readonly participants: EventWriteParticipants,
    private readonly stamps: CalendarEventStamps,
    problems: ProblemTranslators,
    reset: ResetRegistry,
  ) {
    reset.empties('calendar', ['calendar_event_stamps', 'calendar_tokens']);
    problems.add(CALENDAR_PROBLEMS.translate);
  }

  onModuleInit(): void {
    this.participants.join({
      statementsFor: (change) => this.stamps.statementsFor(change),
      statementsForAll: (changes) => this.stamps.statementsForAll(changes),
    });
  }

  configure(consumer: MiddlewareConsumer): void {
    // Nest mounts it as the route `ALL /calendar/*rest`, the same pattern as the 404 that
    // installRouteDefaults adds below the controller's path.
    consumer.apply(hideFeedToken).forRoutes({ path: 'calendar/*rest', method: RequestMethod.ALL });
  }
}
