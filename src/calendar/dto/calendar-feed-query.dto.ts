import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { ListSpecialEventsQuery } from '../../special-events/dto/list-special-events-query.dto.js';

/**
 * The query of the calendar feeds: the list's `startDate` and `endDate`, with its rules (the
 * validation is inherited; only the documentation is the feed's own). Paging belongs to the feed,
 * so `limit`, `page` and `cursor` are unknown parameters here (400).
 */
export class CalendarFeedQuery extends PickType(ListSpecialEventsQuery, ['startDate', 'endDate'] as const) {
  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description:
      'Only the days on or after this date (YYYY-MM-DD). Without `startDate` and `endDate`, every event with an ISO ' +
      'date is in the feed.',
  })
  override startDate?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description: 'Only the days on or before this date. Must not be before `startDate`.',
  })
  override endDate?: string;
}
