import { ApiProperty } from '@nestjs/swagger';
import { rule } from '../../common/validation/validators.js';
import { CLOCK_MAX, CLOCK_MIN } from '../clock-sync.js';

/** The most one advance may move: ten years. */
export const ADVANCE_MAX_SECONDS = 3660 * 86_400;

/** An ISO 8601 instant with its offset (`Z` or `±HH:MM`): a date and time alone name no instant. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function instantProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be an ISO 8601 instant such as 2027-03-13T10:00:00+01:00';
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(value))
    return 'must give its offset (Z or +HH:MM): a time alone is no instant';
  const ms = Date.parse(value);
  if (!INSTANT.test(value) || Number.isNaN(ms)) return 'must be an ISO 8601 instant such as 2027-03-13T10:00:00+01:00';
  // Date.parse rolls 2027-02-30 over to March: the date written must be the date read.
  if (new Date(Date.parse(`${value.slice(0, 10)}T00:00:00Z`)).toISOString().slice(0, 10) !== value.slice(0, 10)) {
    return 'must be an ISO 8601 instant such as 2027-03-13T10:00:00+01:00';
  }
  if (ms < CLOCK_MIN || ms > CLOCK_MAX) return 'must be from 2000-01-01T00:00:00Z to 8999-12-31T23:59:59.999Z';
  return null;
}

/** The body of PUT /testing/clock. */
export class SetClockDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'The museum instant, ISO 8601 with its offset, from 2000-01-01T00:00:00Z to 8999-12-31T23:59:59.999Z.',
    example: '2027-03-13T10:00:00+01:00',
  })
  @rule('isInstant', instantProblem)
  now!: string;

  @ApiProperty({ type: Boolean, description: 'true: the clock stands still at `now`; false: it runs on from it.' })
  @rule('isBoolean', (value) => (typeof value === 'boolean' ? null : 'must be true or false'))
  frozen!: boolean;
}

/** The body of POST /testing/clock/advance. */
export class AdvanceClockDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: ADVANCE_MAX_SECONDS,
    description: 'Whole seconds to move the clock forward (never back: PUT sets any instant).',
    example: 86_400,
  })
  @rule('isSeconds', (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= ADVANCE_MAX_SECONDS
      ? null
      : `must be a whole number of seconds from 0 to ${ADVANCE_MAX_SECONDS}`,
  )
  seconds!: number;
}

/** The clock as GET, PUT and POST …/advance answer it. */
export class ClockResponse {
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'The museum instant, UTC.',
    example: '2027-03-13T09:00:00.000Z',
  })
  now!: string;

  @ApiProperty({ type: Boolean, description: 'Whether the clock stands still.' })
  frozen!: boolean;

  @ApiProperty({
    type: String,
    format: 'date',
    description: 'Today at the museum (MUSEUM_TIME_ZONE).',
    example: '2027-03-13',
  })
  museumDate!: string;

  @ApiProperty({ type: String, description: 'MUSEUM_TIME_ZONE.', example: 'Europe/Paris' })
  timeZone!: string;
}
