import type { EventText, SessionTimes } from './calendar-feed.js';

/** One day of one event, waiting to be rendered. */
export interface Occurrence {
  /** The feed's order: `YYYY-MM-DD eventId`, and ` HH:MM` after it for a session. */
  readonly key: string;
  readonly date: string;
  /** A session's times; absent for a day held all day. */
  readonly session?: SessionTimes;
  /** The event's lines every one of its days shares, with its stamp. */
  readonly text: EventText;
}

/** The waiting days, smallest key first: a binary heap, so that a push or a pop costs log n. */
export class OccurrenceHeap {
  private items: Occurrence[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Occurrence | undefined {
    return this.items[0];
  }

  push(item: Occurrence): void {
    const items = this.items;
    let at = items.push(item) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (items[parent].key <= item.key) break;
      items[at] = items[parent];
      at = parent;
    }
    items[at] = item;
  }

  pop(): Occurrence | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right].key < items[left].key ? right : left;
      if (items[child].key >= last.key) break;
      items[at] = items[child];
      at = child;
    }
    items[at] = last;
    return top;
  }

  clear(): void {
    this.items = [];
  }
}
