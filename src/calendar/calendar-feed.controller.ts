import { Controller, Get, Headers, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/http/public.decorator.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { CalendarFeedService } from './calendar-feed.service.js';
import { CalendarTokenGuard } from './calendar-token.guard.js';
import { CalendarFeedQuery } from './dto/calendar-feed-query.dto.js';
import { ApiFeedResponses, sendFeed } from './feed-response.js';

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
  @ApiOperation({
    operationId: 'getCalendarFeed',
    summary: 'Special events as an iCalendar feed, by token',
    description:
      'getSpecialEventsCalendar for a URL that holds a calendar token (createCalendarToken) instead of credentials. ' +
      'A malformed, unknown or revoked token is a 404; a token deleted is refused from the next request on.',
  })
  @ApiParam({
    name: 'token',
    type: String,
    description: 'A calendar token, as createCalendarToken returned it.',
    example: 'q3J9x0m2V8bQz1Yt5Lw7Nf4Hc6Kd0Rs2Pa9Ue3Ig8Oj',
  })
  @ApiFeedResponses()
  @ApiProblemResponses(
    400,
    {
      status: 404,
      description: 'No feed at this address: the token is malformed, unknown or revoked.',
      detail: 'No calendar feed exists at this address: its token is unknown or was revoked.',
    },
    431,
    503,
  )
  async feed(
    @Query() query: CalendarFeedQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    await sendFeed(this.feeds, query, ifNoneMatch, response);
  }
}
