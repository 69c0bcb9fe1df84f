import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { AdvanceClockDto, ClockResponse, SetClockDto } from './dto/clock.dto.js';

/** Test mode's operations as the OpenAPI document describes them (only in test mode); the controller holds the routes. */

const SHARED =
  'Every instance on the database follows the same setting within a second of a change. Only in test mode (TEST_MODE=true).';

export const ApiGetClock = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getTestClock',
      summary: "Read the museum's clock",
      description: `The museum instant, whether it stands still, and today at the museum. ${SHARED}`,
    }),
    ApiOkResponse({ description: 'The clock.', type: ClockResponse }),
    ApiProblemResponses(401, 429, 431, 503),
  );

export const ApiSetClock = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'setTestClock',
      summary: "Set the museum's clock",
      description:
        'Sets the museum instant: frozen there, or running on from it at the real pace. Any instant in range, ' +
        'earlier ones included (a suite sets its own each test). Hours, "not in the past", the sales horizon and ' +
        `check-in's today follow it; rate limits, TTLs and retries keep real time. ${SHARED}`,
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: SetClockDto }),
    ApiOkResponse({ description: 'The clock as set.', type: ClockResponse }),
    ApiProblemResponses(400, 401, 413, 415, 429, 431, 503),
  );

export const ApiAdvanceClock = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'advanceTestClock',
      summary: "Move the museum's clock forward",
      description: `Moves the clock \`seconds\` forward, frozen or running as it was. Never back: set it instead. ${SHARED}`,
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: AdvanceClockDto }),
    ApiOkResponse({ description: 'The clock as moved.', type: ClockResponse }),
    ApiProblemResponses(400, 401, 413, 415, 429, 431, 503),
  );

export const ApiRealClock = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'resetTestClock',
      summary: "Put the museum's clock back on real time",
      description: `The museum's clock follows the real one again. ${SHARED}`,
    }),
    ApiNoContentResponse({ description: 'Real time again. No body.' }),
    ApiProblemResponses(401, 429, 431, 503),
  );

export const ApiReset = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'resetTestData',
      summary: "Empty every feature's data",
      description:
        'Deletes, in one transaction, every event, ticket, opening hour, webhook and delivery, feed token, ' +
        'idempotency key and public read count: each module registers its own tables. Users, the museum clock and ' +
        'the cursor signing keys are kept. Answers once it is done. Only in test mode (TEST_MODE=true).',
    }),
    ApiNoContentResponse({ description: 'Everything emptied. No body.' }),
    ApiProblemResponses(401, 429, 431, 503),
  );
