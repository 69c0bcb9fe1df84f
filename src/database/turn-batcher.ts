import { WriteDeadlineError } from './database-errors.js';
import { underDeadline } from './request-deadline.js';

/** Most events one statement carries (a row is at most ~25 KiB; max_allowed_packet is 16 MiB+). */
export const MYSQL_BATCH = 100;

export interface Pending<T> {
  readonly item: T;
  readonly resolve: (done: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Collects the calls made in one turn of the event loop and hands them over in chunks of at most
 * MYSQL_BATCH. Calls of a chunk not settled within `deadlineMs` of their call fail with a
 * WriteDeadlineError (503): a request's wait is bounded by the deadline, not by the number of
 * statements its chunk runs one after another. The chunk's own database work is cut to the same
 * deadline (its earliest call's), so that no statement of it outlives the answers.
 *
 * With `maxInFlight`, at most that many chunks run at once: the calls made while they run wait
 * and go out together as the next chunk when one of them ends (group commit), so that a stream
 * of calls spread over many turns shares fewer, larger chunks. The wait counts against their
 * deadline.
 */
export class TurnBatcher<T> {
  private pending: (Pending<T> & { readonly since: number })[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly run: (batch: readonly Pending<T>[]) => Promise<void>,
    private readonly deadlineMs: number,
    private readonly maxInFlight = Number.POSITIVE_INFINITY,
  ) {}

  add(item: T): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.pending.push({ item, resolve, reject, since: Date.now() });
      this.schedule();
    });
  }

  private schedule(): void {
    if (!this.scheduled && this.inFlight < this.maxInFlight) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    while (this.pending.length > 0 && this.inFlight < this.maxInFlight) {
      const now = Date.now();
      const taken = this.pending.splice(0, MYSQL_BATCH);
      // Calls that waited out their deadline behind other chunks: 503, and nothing of them written.
      const late = taken.filter(({ since }) => since + this.deadlineMs <= now);
      if (late.length > 0) {
        const error = new WriteDeadlineError(this.deadlineMs);
        for (const { reject } of late) reject(error);
      }
      const batch = late.length === 0 ? taken : taken.filter(({ since }) => since + this.deadlineMs > now);
      if (batch.length > 0) this.start(batch, batch[0].since + this.deadlineMs - now);
    }
  };

  /** Runs a chunk, answering its calls by `remainingMs` at the latest. */
  private start(batch: readonly Pending<T>[], remainingMs: number): void {
    this.inFlight++;
    let ended = false;
    // The chunk's place among those in flight is given up at its deadline too, so that a chunk
    // whose statement never answers holds up the calls that wait behind it no longer than that.
    const end = (): void => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      if (this.pending.length > 0) this.schedule();
    };
    // A promise settles once: calls answered by the deadline ignore the late outcome.
    const deadline = setTimeout(() => {
      const error = new WriteDeadlineError(this.deadlineMs);
      for (const { reject } of batch) reject(error);
      end();
    }, remainingMs);
    // run() settles every call itself; should it throw anyway, its callers get the error. Its
    // statements and waits are cut to the same deadline (underDeadline), so that none of them
    // runs on past it: the answer at the deadline is then the chunk's, not a guess at it.
    underDeadline(Date.now() + remainingMs, () => this.run(batch))
      .catch((error: unknown) => {
        for (const { reject } of batch) reject(error);
      })
      .finally(() => {
        clearTimeout(deadline);
        end();
      });
  }
}
