import request from 'supertest';
import { DataSource } from 'typeorm';
import { describe, expect, it, vi } from 'vitest';
import { Sql } from '../../src/database/sql.js';
import { EventWriteParticipants } from '../../src/special-events/event-write-participants.js';
import { SpecialEventsRepository } from '../../src/special-events/special-events.repository.js';
import { expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';

/**
 * An update writes an event's date and session rows only when it changes its ISO dates or its
 * sessions: the version its UPDATE requires is the one whose rows are stored. What the statements
 * leave is checked through the range lists (the date rows) and the session rows themselves.
 */

describe('PATCH: the date and session rows', () => {
  const t = useTestApp();

  const patch = (eventId: string, body: Record<string, unknown>) =>
    request(t.baseUrl).patch(`/special-events/${eventId}`).set('Authorization', AUTH).send(body);

  /** The event ids listed in [start, end]. */
  const listed = async (start: string, end: string): Promise<string[]> => {
    const res = await request(t.baseUrl)
      .get(`/special-events?startDate=${start}&endDate=${end}&limit=100`)
      .set('Authorization', AUTH);
    expectStatus(res, 200);
    return (res.body as { eventId: string }[]).map(({ eventId }) => eventId);
  };

  /** The tables the update's transaction wrote, in order (the UPDATE of the event first). */
  const tablesWritten = (spy: ReturnType<typeof vi.spyOn>): string[] => {
    const [guard, then] = spy.mock.calls.at(-1) as [{ sql: string }, { sql: string }[]];
    return [guard, ...then].map(({ sql }) => /(?:UPDATE|INTO|FROM)\s+(\w+)/.exec(sql)?.[1] ?? sql);
  };

  it('a change of other fields writes none; a change of the dates or sessions rewrites them', async () => {
    const event = validEvent({ dates: ['2031-05-01', '2031-05-02T10:00'], capacityPerDate: 5 });
    const eventId = event.eventId as string;
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    const transactions = vi.spyOn(t.app.get(Sql), 'transactionIf');

    expectStatus(await patch(eventId, { price: 30 }), 200);
    expect(tablesWritten(transactions)).toEqual(['special_events', 'calendar_event_stamps', 'webhook_deliveries']);
    // The same dates, written in another order and once more: the same rows, none written.
    expectStatus(await patch(eventId, { dates: ['2031-05-02T10:00', '2031-05-01', '2031-05-01'] }), 200);
    expect(tablesWritten(transactions)).not.toContain('special_event_dates');
    expect(tablesWritten(transactions)).not.toContain('special_event_sessions');
    expect(await listed('2031-05-01', '2031-05-01')).toEqual([eventId]);

    // Another ISO date: the date rows are rewritten, the session's kept.
    expectStatus(await patch(eventId, { dates: ['2031-05-03', '2031-05-02T10:00'] }), 200);
    expect(tablesWritten(transactions)).toContain('special_event_dates');
    expect(tablesWritten(transactions)).not.toContain('special_event_sessions');
    expect(await listed('2031-05-01', '2031-05-01')).toEqual([]);
    expect(await listed('2031-05-03', '2031-05-03')).toEqual([eventId]);

    // Another session on the same date: the session rows are rewritten.
    expectStatus(await patch(eventId, { dates: ['2031-05-03', '2031-05-02T14:00'] }), 200);
    expect(tablesWritten(transactions)).toContain('special_event_sessions');
    const sessions: { session: string }[] = await t.app
      .get(DataSource)
      .query('SELECT session FROM special_event_sessions WHERE event_id = ?', [eventId]);
    expect(sessions.map(({ session }) => session)).toEqual(['2031-05-02T14:00']);
  });

  it('updates of one turn: each answered by its own guard, on MySQL in one transaction', async () => {
    const ids = ['a', 'b', 'c'].map(() => validEvent().eventId as string);
    for (const [i, eventId] of ids.entries()) {
      const body = validEvent({ eventId, name: `Turn ${i}`, dates: ['2031-06-01'] });
      expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(body), 201);
    }
    const store = t.app.get(SpecialEventsRepository);
    const read = async (eventId: string) => {
      const event = await store.find(eventId);
      if (event === null) throw new Error(`no event ${eventId}`);
      return event;
    };
    const [a, b, c] = await Promise.all(ids.map(read));
    const all = vi.spyOn(t.app.get(EventWriteParticipants), 'statementsForAll');
    const missing = Object.assign({}, a, { eventId: validEvent().eventId as string });
    // In one turn: a and c at the version read; b at a version it no longer has; one event that
    // does not exist. c also moves to another date.
    const outcomes = await Promise.all([
      store.update(Object.assign({}, a, { price: 31, version: a.version + 1 }), a.version, false, a.dates),
      store.update(Object.assign({}, b, { price: 32, version: b.version + 2 }), b.version + 1, false, b.dates),
      store.update(Object.assign({}, missing, { version: 2 }), 1, false, missing.dates),
      store.update(
        Object.assign({}, c, { price: 33, dates: ['2031-06-02'], version: c.version + 1 }),
        c.version,
        false,
        c.dates,
      ),
    ]);
    expect(outcomes).toEqual([true, false, false, true]);
    const after = await Promise.all(ids.map(read));
    expect(after.map(({ price, version }) => [price, version])).toEqual([
      [31, a.version + 1],
      [b.price, b.version],
      [33, c.version + 1],
    ]);
    expect(await store.find(missing.eventId)).toBeNull();
    expect(await listed('2031-06-01', '2031-06-01')).toEqual(expect.arrayContaining([ids[0], ids[1]]));
    expect(await listed('2031-06-01', '2031-06-01')).not.toContain(ids[2]);
    expect(await listed('2031-06-02', '2031-06-02')).toEqual([ids[2]]);
    // On MySQL the two that passed had their participants' rows written together.
    const batches = all.mock.calls.map(([changes]) =>
      changes.map((change) => change.kind === 'updated' && change.event.eventId),
    );
    expect(batches).toEqual(t.app.get(Sql).isMysql ? [[ids[0], ids[2]]] : []);
  });
});
