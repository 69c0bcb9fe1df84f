import { Logger } from '@nestjs/common';
import { shownPathOf } from '../common/http/shown-path.js';
import { requestIdOf } from '../common/logging/request-logging.js';
import { ProblemException } from '../common/problem/problem.js';
import type { ProblemTranslator } from '../common/problem/problem-translator.js';
import { isDatabaseUnavailable } from './database-errors.js';

/** Seconds a client should wait when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const logger = new Logger('Errors');

/** An unreachable or failing database: 503 with Retry-After, logged as a warning with its code. */
export const databaseUnavailableProblem: ProblemTranslator = (error, request) => {
  if (!isDatabaseUnavailable(error)) return undefined;
  const failure = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  logger.warn({
    msg: 'Database unavailable',
    requestId: requestIdOf(request),
    code: failure?.driverError?.code ?? failure?.code,
    method: request.method,
    path: shownPathOf(request),
  });
  return new ProblemException(503, 'The service cannot reach its database right now; retry shortly.', {
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
  });
};
