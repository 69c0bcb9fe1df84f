import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ProblemException } from '../problem/problem.js';
import { sendProblem } from '../problem/send-problem.js';

/** Longest pause between two of Node's checks for requests whose headers are late. */
const MAX_CHECK_INTERVAL_MS = 1000;

/**
 * A request whose headers have not all arrived `headersTimeoutMs` after its first byte is answered
 * 408 (by the server's 'clientError' listener). Node checks for late requests every
 * `connectionsCheckingInterval` (30 s by default, read when the server starts listening), so
 * the answer comes within `headersTimeoutMs` plus at most one second.
 */
export function boundHeaderTime(server: Server, headersTimeoutMs: number): void {
  server.headersTimeout = headersTimeoutMs;
  // A Server property (@types/node declares it only as a createServer option).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    MAX_CHECK_INTERVAL_MS,
    Math.max(50, headersTimeoutMs / 2),
  );
}

const UNMET_EXPECTATION = new WeakSet<IncomingMessage>();

/**
 * Node answers an `Expect` other than `100-continue` with a bare 417 (no problem details, no
 * security headers) unless the server has a 'checkExpectation' listener. With this one the
 * request goes through Express like any other, and answeredUnservable answers it.
 */
export function deferUnmetExpectations(server: Server): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    UNMET_EXPECTATION.add(request);
    server.emit('request', request, response);
  });
}

/** True when the request carries more than one Host header (Node keeps the first). */
function hasSeveralHosts(request: IncomingMessage): boolean {
  let hosts = 0;
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host' && ++hosts > 1) return true;
  }
  return false;
}

/**
 * The check of one request, run after the request observer (so these answers get an id, the
 * security headers and a log line) and before anything else (request-gate.ts): an unmet `Expect`
 * is a 417, and a request with two `Host` headers a 400 (RFC 9112 §3.2: which host it is for is
 * ambiguous). True when it answered, false when the request goes on.
 */
export function answeredUnservable(request: IncomingMessage, response: ServerResponse): boolean {
  if (UNMET_EXPECTATION.has(request)) {
    sendProblem(
      request,
      response,
      new ProblemException(417, 'The only expectation this service meets is Expect: 100-continue.'),
    );
    return true;
  }
  if (hasSeveralHosts(request)) {
    sendProblem(request, response, new ProblemException(400, 'The request has more than one Host header.'));
    return true;
  }
  return false;
}
