import { ApiProperty } from '@nestjs/swagger';

/** One date item's attendance, as GET /special-events/{eventId}/attendance answers (documentation only). */
export class DateAttendanceResponse {
  @ApiProperty({
    type: 'string',
    example: '2026-12-24T14:00',
    description: "The event's date item as stored (ISO items only: free text sells no ticket).",
  })
  date: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 18,
    description:
      "Tickets held for the item: active or checked in (the seats they take). A date item's are its date's; a session's " +
      'its own and those of its date that name no time.',
  })
  sold: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 11,
    description: 'Of `sold`, the tickets checked in at the door.',
  })
  checkedIn: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 2,
    description: 'Tickets for the item that were cancelled (not counted in `sold`).',
  })
  cancelled: number;
}
