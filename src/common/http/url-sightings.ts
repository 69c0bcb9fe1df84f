/**
 * Which URLs were read lately, for "keep an answer on its second read" (PublicAnswerCache),
 * without holding the URLs: a direct-mapped table of `slots` entries (a power of two), each a
 * 32-bit FNV-1a hash of a URL and until when its read counts. Typed arrays, so a flood of new
 * URLs allocates nothing and leaves nothing for the garbage collector: a Map of the URL strings,
 * each kept for seconds, had every one of them promoted to the old generation and collected
 * there, which cost a flood's read 16 µs of collection (a third of what it did more than a read
 * with credentials).
 *
 * A URL is forgotten early when a later one takes its slot, and two URLs with the same hash in
 * one slot are taken for one; either only decides whether an answer is copied into memory, never
 * what is answered.
 */
export class UrlSightings {
  private readonly hashes: Int32Array;
  private readonly until: Float64Array;
  private readonly mask: number;

  /** At least `minSlots` slots (rounded up to a power of two). */
  constructor(minSlots: number) {
    let slots = 1;
    while (slots < minSlots) slots *= 2;
    this.hashes = new Int32Array(slots);
    this.until = new Float64Array(slots);
    this.mask = slots - 1;
  }

  get slots(): number {
    return this.mask + 1;
  }

  /** Whether `url` was seen before and its sighting is still current at `now`; counts this read until `until`. */
  seen(url: string, now: number, until: number): boolean {
    const hash = fnv1a(url);
    const slot = hash & this.mask;
    const before = this.hashes[slot] === hash && (this.until[slot] as number) > now;
    this.hashes[slot] = hash;
    this.until[slot] = until;
    return before;
  }

  /** Whether `url`'s sighting is current at `now`, without counting a read. */
  knows(url: string, now: number): boolean {
    const hash = fnv1a(url);
    const slot = hash & this.mask;
    return this.hashes[slot] === hash && (this.until[slot] as number) > now;
  }
}

/** FNV-1a over the UTF-16 code units, as a signed 32-bit integer. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}
