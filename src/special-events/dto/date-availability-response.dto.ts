import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FIELD_SCHEMA } from '../event-fields.js';

/** One date item's seats, as GET /special-events/{eventId}/availability answers (documentation only). */
export class DateAvailabilityResponse {
  @ApiProperty({
    type: 'string',
    example: '2026-12-24T14:00',
    description: "The event's date item as stored (ISO items only: free text sells no ticket).",
  })
  date: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    example: 18,
    description:
      "The tickets sold for the item's date (sessions of one date share it). Not shown to anonymous readers.",
  })
  ticketsSold?: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: FIELD_SCHEMA.capacityPerDate.maximum,
    nullable: true,
    example: 7,
    description:
      "What is still for sale on the date: the smaller of its seats left (capacityPerDate − sold) and the event's " +
      '(capacity − sold); null when the event has neither limit.',
  })
  ticketsAvailable: number | null;
}
