/** A password check that could not start within the gate's longest wait. */
export class HashGateBusyError extends Error {
  constructor() {
    super('Too many password checks waiting.');
    this.name = 'HashGateBusyError';
  }
}

export interface HashGateOptions {
  /** Password hashes computed at once, process-wide. */
  readonly concurrency: number;
  /** Longest a check waits for its turn before HashGateBusyError. */
  readonly maxWaitMs: number;
}

interface Waiter {
  readonly start: () => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Bounds the password hashes computed at once. Each scrypt hash takes its memory (64 MiB at the
 * default parameters) and a thread of libuv's pool, which zlib and the file system share: without
 * a bound, a burst of guesses took the process's memory several times over and stalled unrelated
 * requests. Checks beyond the bound wait their turn, served in turn by client address (round
 * robin), so one address with many checks queued cannot keep another's out; one that waits longer
 * than `maxWaitMs` fails with HashGateBusyError (the caller answers 503 with Retry-After).
 */
export class HashGate {
  private running = 0;
  /** Waiting checks per client address; the Map's order is the round robin's. */
  private readonly queues = new Map<string, Waiter[]>();

  constructor(private readonly options: HashGateOptions) {}

  /** Hashes computing now. */
  get active(): number {
    return this.running;
  }

  /** Runs `task` once a slot is free; `address` is whose turn it takes. */
  async run<T>(address: string, task: () => Promise<T>): Promise<T> {
    if (this.running < this.options.concurrency && this.queues.size === 0) {
      this.running++;
    } else {
      await this.wait(address);
    }
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private wait(address: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        // The slot of the check that finished passes to this one: `running` stays the same.
        start: resolve,
        timer: setTimeout(() => {
          const queue = this.queues.get(address);
          const index = queue?.indexOf(waiter) ?? -1;
          if (queue && index >= 0) {
            queue.splice(index, 1);
            if (queue.length === 0) this.queues.delete(address);
          }
          reject(new HashGateBusyError());
        }, this.options.maxWaitMs),
      };
      const queue = this.queues.get(address);
      if (queue) queue.push(waiter);
      else this.queues.set(address, [waiter]);
    });
  }

  private release(): void {
    const next = this.queues.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [address, queue] = next.value;
    const waiter = queue.shift() as Waiter;
    // The address goes to the back of the round robin, or leaves it when it has nobody waiting.
    this.queues.delete(address);
    if (queue.length > 0) this.queues.set(address, queue);
    clearTimeout(waiter.timer);
    waiter.start();
  }
}
