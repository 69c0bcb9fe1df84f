import type { Request } from 'express';
import type { ProblemException } from './problem.js';

/**
 * Turns an error that a module knows (its own outcome, or a failure of what it wraps, such as an
 * unreachable database) into the problem it answers with, or undefined when it does not know the
 * error. The application gives ProblemDetailsFilter its list; the first answer wins. So common/
 * decides how a problem is sent, and never needs to know which module raised it.
 */
export type ProblemTranslator = (error: unknown, request: Request) => ProblemException | undefined;
