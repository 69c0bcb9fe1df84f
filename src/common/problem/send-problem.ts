import type { IncomingMessage, ServerResponse } from 'node:http';
import { shownPathOf } from '../http/shown-path.js';
import { PROBLEM_CONTENT_TYPE, type ProblemException } from './problem.js';

/**
 * Sends `problem` from outside Nest (a middleware or a server event), as ProblemDetailsFilter
 * sends it: its headers, `application/problem+json`, and the connection closed after it when the
 * request's body was not read.
 */
export function sendProblem(request: IncomingMessage, response: ServerResponse, problem: ProblemException): void {
  for (const [name, value] of Object.entries(problem.headers)) response.setHeader(name, value);
  if (!request.complete) response.shouldKeepAlive = false;
  const body = JSON.stringify(problem.toProblem(shownPathOf(request)));
  response.statusCode = problem.getStatus();
  response.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  response.setHeader('Content-Length', Buffer.byteLength(body));
  response.end(body);
}
