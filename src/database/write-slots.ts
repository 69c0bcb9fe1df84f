import { POOL_ACQUIRE_TIMEOUT } from './pool-acquire-timeout.js';
import { withinRequestDeadline } from './request-deadline.js';

/**
 * How many MySQL connections writes may hold at once: fewer than the pool has, so that reads
 * still reach the database while writes are stuck (a global read lock held elsewhere blocks every
 * write on the server, and each blocked write keeps its connection until its deadline: with all
 * the pool's connections held so, reads, which that lock does not block, were refused too). A
 * write waits for a slot as it would for a connection: at most the acquire timeout, cut to the
 * request's deadline, then an error coded POOL_ACQUIRE_TIMEOUT (503).
 */
export class WriteSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly size: number,
    private readonly acquireTimeoutMs: number,
  ) {
    this.free = size;
  }

  /** The number of slots a pool of `poolSize` leaves to writes: a quarter (at least one) kept for reads. */
  static forPool(poolSize: number): number {
    return Math.max(1, poolSize - Math.max(1, Math.floor(poolSize / 4)));
  }

  /** Runs `write` holding a slot. */
  async run<T>(write: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await write();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    const timeoutMs = withinRequestDeadline(this.acquireTimeoutMs);
    return new Promise<void>((resolve, reject) => {
      const granted = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(granted);
        if (index >= 0) this.waiting.splice(index, 1);
        const error: NodeJS.ErrnoException = new Error(`No write slot became free within ${timeoutMs} ms`);
        error.code = POOL_ACQUIRE_TIMEOUT;
        reject(error);
      }, timeoutMs);
      this.waiting.push(granted);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.free++;
    else next();
  }
}
