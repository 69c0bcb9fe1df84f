import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { DateAttendanceResponse } from './dto/date-attendance-response.dto.js';
import { SPECIAL_EVENT_PROBLEMS } from './special-events.problems.js';

export const ApiGetSpecialEventAttendance = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getSpecialEventAttendance',
      summary: "Get a special event's attendance per date",
      description:
        'Each ISO date item of the event (as stored, in its order, once each; free text sells no ticket), dates ' +
        'without a ticket included, with its tickets: `sold` (held: active or checked in), `checkedIn` (of those, ' +
        'scanned at the door) and `cancelled`. A date item counts every ticket of its date; a session item ' +
        '(`YYYY-MM-DDTHH:MM`) the tickets of its session and those of its date that name no time, which every session ' +
        'of the date shares. For viewers and up; never for anonymous callers.',
    }),
    ApiOkResponse({ description: "The event's dates and their tickets.", type: DateAttendanceResponse, isArray: true }),
    ApiProblemResponses(400, 401, SPECIAL_EVENT_PROBLEMS.response(['not-found']), 429, 431, 503),
  );
