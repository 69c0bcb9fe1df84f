/**
 * At most `size` feeds are built at once; the others wait their turn, in arrival order, holding
 * nothing. A built feed is kept whole until it is sent (up to 16 MiB), so this is what bounds the
 * feeds' memory as a whole, whatever the number of clients asking at once.
 */
export class FeedTurns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /**
   * Waits for a turn: its `release` (to call when the feed is sent or given up; later calls do
   * nothing), or undefined when `signal` aborted first (the client went away while it waited).
   */
  async take(signal: AbortSignal): Promise<(() => void) | undefined> {
    if (signal.aborted) return undefined;
    if (this.running < this.size) {
      this.running++;
      return this.releaser();
    }
    const granted = await new Promise<boolean>((resolve) => {
      const turn = (): void => {
        signal.removeEventListener('abort', leave);
        resolve(true);
      };
      const leave = (): void => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      };
      this.waiting.push(turn);
      signal.addEventListener('abort', leave, { once: true });
    });
    return granted ? this.releaser() : undefined;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The turn passes to the next in line (still counted as running), or is given back.
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    };
  }
}

/**
 * The feeds' one share of each turn of the event loop: all the feeds being built use at most
 * `sliceMs` of it together, not `sliceMs` each (with four at once, four slices back to back held
 * the loop four times as long). `pause` is undefined while the share lasts; once it is used up,
 * every feed waits for the same next turn, where the share starts again.
 */
export class LoopShare {
  private started: number;
  private nextTurn?: Promise<void>;

  constructor(
    private readonly sliceMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  pause(): Promise<void> | undefined {
    if (this.now() - this.started < this.sliceMs) return undefined;
    this.nextTurn ??= new Promise((resolve) =>
      setImmediate(() => {
        this.nextTurn = undefined;
        this.started = this.now();
        resolve();
      }),
    );
    return this.nextTurn;
  }
}
