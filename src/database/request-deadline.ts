import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { TurnBudget } from '../common/http/turn-budget.js';

/**
 * One deadline for all the database work a request does. Each statement has its own timeout
 * (DB_QUERY_TIMEOUT_MS) and each wait for a connection its own (DB_ACQUIRE_TIMEOUT_MS), so a
 * request of several statements, each stuck, would otherwise take their sum (a purchase behind a
 * global read lock took 19 s to get its 503). Within a request, every wait for a connection or a
 * write slot and every statement is cut to what is left of the deadline set when the request
 * arrived (requestDeadline, which app.setup.ts runs for every request on MySQL, the only database
 * whose waits read it). A batch of several requests' writes (TurnBatcher) has a window of its
 * own, its earliest call's deadline (underDeadline). Work outside a request (the webhook
 * dispatcher, startup), and work a request or a batch started that runs on after its answer (a
 * timer it scheduled, a connection it opened), keep the per-statement bounds alone.
 */
interface RequestWindow {
  readonly deadlineAt: number;
  open: boolean;
  /** The turn budget that paces the request's work after each database wait (afterDatabaseWait). */
  readonly turns: TurnBudget | undefined;
}

const windows = new AsyncLocalStorage<RequestWindow>();

/**
 * Express middleware: the request's database work has `ms` in all, from now. With `turns`, what
 * the request does after each of its reads is paced by that turn budget too (afterDatabaseWait):
 * for the requests whose start it paces (anonymous reads, mayWaitForTurn).
 */
export function requestDeadline(
  ms: number,
  turns?: TurnBudget,
): (request: Request, response: Response, next: NextFunction) => void {
  return (_request, response, next) => {
    const window: RequestWindow = { deadlineAt: Date.now() + ms, open: true, turns };
    response.once('close', () => {
      window.open = false;
    });
    windows.run(window, next);
  };
}

/**
 * Runs `work` with all its database work bounded by `deadlineAt`, in whatever context it was
 * started: the writes of several requests that go out together (TurnBatcher) are bounded by the
 * earliest of their deadlines, not by the window of the request whose turn happened to start them
 * (that window closes once its request is answered, which left the batch's statements the
 * per-statement bounds alone: they could then commit after their own requests had been answered
 * 503, and a retry with the same Idempotency-Key could then apply the change twice).
 */
export function underDeadline<T>(deadlineAt: number, work: () => Promise<T>): Promise<T> {
  const window: RequestWindow = { deadlineAt, open: true, turns: undefined };
  // Closed once the work is over, as a request's window is once it is answered: what the work
  // left behind (a connection it opened, a timer) may run long after in its context, and must
  // not find its statements cut to a deadline that has passed.
  return windows.run(window, work).finally(() => {
    window.open = false;
  });
}

/** `bound`, cut to what is left of the current request's deadline (at least 1 ms). */
export function withinRequestDeadline(bound: number): number {
  const window = windows.getStore();
  if (window === undefined || !window.open) return bound;
  return Math.max(1, Math.min(bound, window.deadlineAt - Date.now()));
}

/**
 * Whether the current request goes on at once after a database wait (undefined), or in a later
 * turn of the event loop (the promise): when its work is paced (requestDeadline's `turns`) and the
 * turn has spent its budget (TurnBudget.resume).
 */
export function afterDatabaseWait(): Promise<void> | undefined {
  return windows.getStore()?.turns?.resume();
}
