/** Most events one statement carries (a row is at most ~25 KiB; max_allowed_packet is 16 MiB+). */
export const MYSQL_BATCH = 100;

export interface Pending<T> {
  readonly item: T;
  readonly resolve: (done: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/** Collects the calls made in one turn of the event loop and hands them over in chunks of at most MYSQL_BATCH. */
export class TurnBatcher<T> {
  private pending: Pending<T>[] = [];
  private scheduled = false;

  constructor(private readonly run: (batch: readonly Pending<T>[]) => Promise<void>) {}

  add(item: T): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MYSQL_BATCH);
      // run() settles every call itself; should it throw anyway, its callers get the error.
      this.run(batch).catch((error: unknown) => {
        for (const { reject } of batch) reject(error);
      });
    }
  };
}
