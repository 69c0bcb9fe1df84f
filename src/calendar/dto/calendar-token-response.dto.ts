import { ApiProperty } from '@nestjs/swagger';
import { TOKEN_DESCRIPTION_MAX } from './create-calendar-token.dto.js';

/** A feed token as listed: never the token itself (documentation only). */
export class CalendarTokenResponse {
  @ApiProperty({ type: String, format: 'uuid', example: '3f0c5a8e-2b7d-4c1e-9a6f-0d4b8e2c7a15' })
  tokenId: string;

  @ApiProperty({ type: String, maxLength: TOKEN_DESCRIPTION_MAX, example: 'Front desk tablet' })
  description: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T09:30:00.000Z' })
  createdAt: string;
}

/** A feed token just made: the only answer that holds the token (documentation only). */
export class CreatedCalendarTokenResponse extends CalendarTokenResponse {
  @ApiProperty({
    type: String,
    pattern: '^[A-Za-z0-9_-]{43}$',
    description: '32 random bytes, base64url. Shown only here: the service keeps its SHA-256 alone.',
    example: 'q3J9x0m2V8bQz1Yt5Lw7Nf4Hc6Kd0Rs2Pa9Ue3Ig8Oj',
  })
  token: string;

  @ApiProperty({
    type: String,
    description: 'The feed for calendar applications, relative to the service: `/calendar/{token}.ics`.',
    example: '/calendar/q3J9x0m2V8bQz1Yt5Lw7Nf4Hc6Kd0Rs2Pa9Ue3Ig8Oj.ics',
  })
  feedUrl: string;
}
