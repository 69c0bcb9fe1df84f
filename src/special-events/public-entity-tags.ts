import { Injectable } from '@nestjs/common';
import { CursorSigningKeys } from './cursor-signing-keys.js';
import type { SpecialEvent } from './special-event.entity.js';
import type { ListPage } from './special-events.service.js';

/**
 * The strong ETags of the public (anonymous) representations. Opaque: a keyed MAC (the tagging
 * key every instance derives from the cursor signing key) of what decides the bytes, so a tag
 * says nothing the public answer hides (an event's version, its tickets sold and so its
 * capacity), and every instance gives the same tag for the same answer, so a 304 holds across
 * them. 22 characters of base64url: 132 bits. A rotation of the signing key changes every tag
 * once (a 200 where a 304 would have done).
 */
@Injectable()
export class PublicEntityTags {
  constructor(private readonly keys: CursorSigningKeys) {}

  /**
   * An event's: its id, its version, and for an event with a capacity the tickets sold too (the
   * body shows ticketsAvailable, which a sale changes without a new version).
   */
  ofEvent(event: SpecialEvent): string {
    const sold = event.capacity === null ? '' : event.ticketsSold;
    return `"p${this.mac(`e\n${event.eventId}\n${event.version}\n${sold}`)}"`;
  }

  /**
   * A list page's, from what decides its bytes (each event's id, version and tickets sold, in
   * order, and the next page's cursor) rather than from the bytes: a 304 then renders nothing.
   */
  ofPage(page: Pick<ListPage, 'events' | 'nextCursor'>): string {
    // One string and one MAC: a hash update per event cost a list miss 5 µs more.
    let text = `l\n${page.nextCursor ?? ''}`;
    for (const event of page.events) text += `\n${event.eventId} ${event.version} ${event.ticketsSold}`;
    return `"l${this.mac(text)}"`;
  }

  private mac(text: string): string {
    return this.keys.tagging().mac(text).toString('base64url', 0, 17).slice(0, 22);
  }
}
