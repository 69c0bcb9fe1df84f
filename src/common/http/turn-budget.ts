import type { NextFunction, Request, Response } from 'express';

/**
 * How long one turn of the event loop may go on starting requests, in ms. Under a flood every
 * connection's request is read in the same turn (48 of 50 in the bench's flood, measured): a
 * turn then did 50 requests' work, ~25 ms on one core at 2,000 req/s and far more on a busy
 * machine, and a garbage collection falling into it took it past 50 ms. What is left after this
 * goes on in the next turns, in the order it came, so the loop comes round (timers, a liveness
 * probe, the sockets' reads) between them. docs/performance-history.md has the figures.
 */
export const TURN_BUDGET_MS = 15;

/**
 * Whether a request may wait for a later turn (TurnBudget): an anonymous read (GET or HEAD without
 * an Authorization header) may; nothing else does.
 * - A write never waits: the writes of one turn share one commit (SQLite's group commit, MySQL's
 *   batched creates, deletes and updates), and held back past the budget a turn's writes went out
 *   in four or five commits instead of one, each with its own fsync.
 * - A read with credentials never waits: at 50 connections a read moved to a later turn answers
 *   later: with every read paced, the authenticated get's p99 came out 1.22× of the build without
 *   the budget in a quiet three-round A/B (1.50× of `d7f5e52` in an earlier run; docs/performance.md). The staff's and the apps' own calls go first.
 * - A health check never waits, so that a probe beside a flood measures the loop, not its queue.
 * - Nor does a calendar feed (`/calendar/{token}.ics`): its token is its credential, and its build
 *   already takes the loop in slices of a bounded length; paced as well, the bench's feeds on MySQL
 *   were served at about half their rate (median 22 against 41 a second over ten runs).
 * The long turns the budget is for are floods of anonymous reads (the public list, the pages):
 * anyone can send them, and they are what a turn of 50 connections' requests is made of.
 */
export function mayWaitForTurn(method: string, url: string, sendsCredentials: boolean): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    !sendsCredentials &&
    !url.startsWith('/health/') &&
    !url.startsWith('/calendar/')
  );
}

type Clock = () => number;
/** A unit of work with its arguments (an Express middleware's: no closure per request). */
type Unit<A, B, C> = (a: A, b: B, c: C) => void;
/** A continuation's unit (resume): its promise settles. */
const settle: Unit<() => void, undefined, undefined> = (resolve) => resolve();

/**
 * Starts units of work in the order given, at most `budgetMs` of them per turn of the event loop
 * (a unit that starts within the budget runs to its end: the budget bounds when the last one
 * starts). Within the budget, and with nothing waiting, a unit runs at once (nothing is
 * scheduled); past it, units wait for a later turn, each as its own `setImmediate` callback, so
 * that the promises a unit starts settle before the next unit is timed.
 *
 * One budget a turn. A budget opens with the first unit started and a `setImmediate` queued then
 * closes it: in the same turn's check phase, after the sockets' callbacks (the poll phase) and
 * before every unit made to wait there (queued later). A budget opened by a waiting unit (in a
 * check phase) closes in the next turn's check phase, and the units waiting there start a new
 * one. A budget spent while reading sockets, with units waiting, lasts through its turn's check
 * phase too and closes in the next turn's, so those units do not get a second budget in its turn
 * (with one each, a burst's turn did ~30 ms of requests, and a scavenge of 21-29 ms falling into
 * it took the turn past 50 ms). Whatever is still over is queued again for the next turn; units
 * wait as long as any waits, to keep the order.
 */
export class TurnBudget {
  /** When the open budget started; -1: none open. */
  private openedAt = -1;
  /** Whether the open budget was opened by a waiting unit, in a check phase. */
  private openedByWaiting = false;
  /** Units made to wait and not started yet. */
  private waiting = 0;
  /** Closes the budget. */
  private readonly closeBudget = (): void => {
    this.openedAt = -1;
  };
  /**
   * The check phase of the turn the budget opened in. A budget opened before it (the poll phase)
   * and spent, with units waiting, lasts through this check phase and closes in the next turn's,
   * before those units (queued after this): one budget a turn. Any other closes now: one opened
   * in a check phase by a waiting unit, and one with nothing waiting, so that the next turn's
   * first request starts at once (held to the next check phase, each such request paid a
   * `setImmediate`, and the bench's anonymous list its throughput).
   */
  private readonly endOfTurn = (): void => {
    if (this.openedByWaiting || this.waiting === 0) this.openedAt = -1;
    else setImmediate(this.closeBudget);
  };

  constructor(
    private readonly budgetMs: number = TURN_BUDGET_MS,
    private readonly now: Clock = () => performance.now(),
  ) {}

  /** Runs `unit` now if the turn's budget allows and nothing waits, or in a later turn. */
  run(unit: Unit<Request, Response, NextFunction>, request: Request, response: Response, next: NextFunction): void {
    if (this.waiting === 0 && this.withinBudget()) {
      unit(request, response, next);
      return;
    }
    this.wait(unit, request, response, next);
  }

  /**
   * A started unit's going on after a wait (a database's answer): undefined when it may go on at
   * once (the turn has budget left and nothing waits), else a promise that settles in a later
   * turn, in order with the units waiting. What follows a wait (the rows read, the body built, the
   * answer written) runs in the callbacks of the sockets the answers came on, which `run` does not
   * see: on MySQL, 50 reads' answers arriving in one poll phase were 50 reads' work in one turn.
   */
  resume(): Promise<void> | undefined {
    if (this.waiting === 0 && this.withinBudget()) return undefined;
    return new Promise<void>((resolve) => this.wait(settle, resolve, undefined, undefined));
  }

  /** How many units wait for a later turn (the tests read it). */
  get waitingUnits(): number {
    return this.waiting;
  }

  private wait<A, B, C>(unit: Unit<A, B, C>, a: A, b: B, c: C): void {
    this.waiting++;
    setImmediate(this.later, unit, a, b, c);
  }

  private readonly later = <A, B, C>(unit: Unit<A, B, C>, a: A, b: B, c: C): void => {
    if (!this.withinBudget(true)) {
      // Queued during the check phase: the next turn's.
      setImmediate(this.later, unit, a, b, c);
      return;
    }
    this.waiting--;
    unit(a, b, c);
  };

  /** Opens a budget if none is open; whether the open one has time left. */
  private withinBudget(byWaiting = false): boolean {
    const now = this.now();
    if (this.openedAt < 0) {
      this.openedAt = now;
      this.openedByWaiting = byWaiting;
      setImmediate(this.endOfTurn);
      return true;
    }
    return now - this.openedAt < this.budgetMs;
  }
}
