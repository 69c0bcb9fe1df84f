/**
 * Buffers of one size, kept for the next feed instead of being let go. A feed's octets (up to
 * 16 MiB of chunks, and the slabs of its events' text) live outside the JavaScript heap, and V8
 * answers each 64 MiB of such memory allocated since its last full collection with another one:
 * four feeds at once made one every 200 ms, each holding the event loop 10-35 ms. Reused, the
 * memory is allocated once. At most `most` are kept, and none once `idleMs` pass without a
 * buffer given back (the memory is then let go).
 */
export class BufferPool {
  private readonly free: Buffer[] = [];
  private idle?: NodeJS.Timeout;

  constructor(
    readonly size: number,
    private readonly most: number,
    private readonly idleMs = 60_000,
  ) {}

  /** A buffer of `size` octets, its content undefined. */
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafe(this.size);
  }

  /** Keeps the buffers (those of `size` octets, up to `most`): the caller no longer uses them. */
  give(buffers: Iterable<Buffer>): void {
    for (const buffer of buffers) {
      if (buffer.length === this.size && this.free.length < this.most) this.free.push(buffer);
    }
    if (this.idle === undefined) {
      this.idle = setTimeout(() => {
        this.free.length = 0;
        this.idle = undefined;
      }, this.idleMs);
      this.idle.unref();
    } else {
      this.idle.refresh();
    }
  }

  /** How many are kept now. */
  get kept(): number {
    return this.free.length;
  }
}
