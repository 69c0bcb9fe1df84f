import { randomBytes } from 'node:crypto';
import { CursorSigningKeys } from './cursor-signing-keys.js';
import { PublicEntityTags } from './public-entity-tags.js';
import type { SpecialEvent } from './special-event.entity.js';
import type { SpecialEventsRepository } from './special-events.repository.js';

/** Tags under one signing key, as every instance on one database derives them. */
async function tagsUnder(secret: Buffer): Promise<PublicEntityTags> {
  const rows = [{ keyId: 'k1', secret: secret.toString('base64url') }];
  const keys = new CursorSigningKeys({
    cursorSigningKeys: () => Promise.resolve(rows),
  } as unknown as SpecialEventsRepository);
  await keys.onModuleInit();
  return new PublicEntityTags(keys);
}

function event(fields: Partial<SpecialEvent>): SpecialEvent {
  return {
    eventId: '01890a5d-ac96-774b-bcce-b302099a8057',
    name: 'Night at the museum',
    location: 'Hall A',
    eventDescription: '',
    dates: ['2031-05-01'],
    price: 10,
    capacity: 40,
    ticketsSold: 7,
    version: 123_456_789,
    sortDate: '2031-05-01',
    ...fields,
  } as SpecialEvent;
}

const OPAQUE = /^"p[A-Za-z0-9_-]{22}"$/;

describe('PublicEntityTags', () => {
  const secret = randomBytes(32);

  it('gives an opaque tag that names neither the version nor the tickets sold', async () => {
    const tags = await tagsUnder(secret);
    const shown = event({ version: 987_654_321, ticketsSold: 13 });
    const tag = tags.ofEvent(shown);
    expect(tag).toMatch(OPAQUE);
    for (const part of ['987654321', (987_654_321).toString(36), '13', (13).toString(36)]) {
      expect(tag).not.toContain(`p${part}`);
      expect(tag).not.toContain(`-${part}`);
    }
  });

  it('does not depend on the capacity (hidden), and differs by event, version and sale', async () => {
    const tags = await tagsUnder(secret);
    const tag = tags.ofEvent(event({}));
    expect(tags.ofEvent(event({ capacity: 4_000 }))).toBe(tag);
    expect(tags.ofEvent(event({ eventId: '01890a5d-ac96-774b-bcce-b302099a8058' }))).not.toBe(tag);
    expect(tags.ofEvent(event({ version: 123_456_790 }))).not.toBe(tag);
    expect(tags.ofEvent(event({ ticketsSold: 8 }))).not.toBe(tag);
    // Without a capacity the body shows no ticketsAvailable: a sale changes nothing in it.
    expect(tags.ofEvent(event({ capacity: null, ticketsSold: 8 }))).toBe(tags.ofEvent(event({ capacity: null })));
  });

  it('is the same on every instance with the signing key, and underivable without it', async () => {
    const one = await tagsUnder(secret);
    const two = await tagsUnder(Buffer.from(secret));
    const other = await tagsUnder(randomBytes(32));
    const page = { events: [event({})], nextCursor: undefined };
    expect(two.ofEvent(event({}))).toBe(one.ofEvent(event({})));
    expect(two.ofPage(page)).toBe(one.ofPage(page));
    expect(other.ofEvent(event({}))).not.toBe(one.ofEvent(event({})));
    expect(other.ofPage(page)).not.toBe(one.ofPage(page));
    expect(one.ofPage(page)).toMatch(/^"l[A-Za-z0-9_-]{22}"$/);
  });
});
