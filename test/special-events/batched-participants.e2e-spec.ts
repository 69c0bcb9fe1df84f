import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Sql } from '../../src/database/sql.js';
import { EventWriteParticipants } from '../../src/special-events/event-write-participants.js';
import { SpecialEventsService } from '../../src/special-events/special-events.service.js';
import type { NewSpecialEvent } from '../../src/special-events/special-events.types.js';
import { expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { seedTicket } from '../helpers/tickets.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Creates and deletes made in one turn of the event loop: on MySQL one batch, whose participants
 * (the calendar's stamps, the webhook outbox, the tickets a delete cancels) write every event's
 * rows in one multi-row statement each (statementsForAll); on SQLite each goes alone in the group
 * commit. Either way every event gets exactly its own rows: a stamp while it exists, its tickets
 * cancelled with what each is owed, one delivery per change per subscriber, in order per event.
 */

const EVENTS = 6;

describe('creates and deletes of one turn, with every participant', () => {
  const receiver = new WebhookReceiver();
  const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  let receiverUrl = '';

  beforeAll(async () => {
    receiverUrl = await receiver.start();
  });
  afterAll(() => receiver.stop());

  const stamped = async (ids: readonly string[]): Promise<string[]> => {
    const rows: { event_id: string }[] = await t.app
      .get(DataSource)
      .query(`SELECT event_id FROM calendar_event_stamps WHERE event_id IN (${ids.map(() => '?').join(', ')})`, [
        ...ids,
      ]);
    return rows.map((row) => row.event_id).sort();
  };

  it('writes each event’s stamp, tickets and deliveries, to every subscriber, in one statement per participant on MySQL', async () => {
    for (const path of ['/a', '/b']) {
      expectStatus(
        await request(t.baseUrl)
          .post('/webhooks')
          .set('Authorization', AUTH)
          .send({ url: `${receiverUrl}${path}` }),
        201,
      );
    }
    const participants = t.app.get(EventWriteParticipants);
    const all = vi.spyOn(participants, 'statementsForAll');
    const events = t.app.get(SpecialEventsService);
    const ids = Array.from({ length: EVENTS }, () => randomUUID());
    // Called in one turn: on MySQL the turn's creates (and then its deletes) share one batch.
    await Promise.all(
      ids.map((eventId, i) => events.create(validEvent({ eventId, name: `Batch ${i}` }) as unknown as NewSpecialEvent)),
    );
    expect(await stamped(ids)).toEqual([...ids].sort());

    // One event without tickets; the others with an active one and one checked in.
    const tickets = new Map<string, { active: string; admitted: string }>();
    for (const eventId of ids.slice(1)) {
      const active = await seedTicket(t, { eventId, ticketDate: '2026-12-01', price: 19.99 });
      const admitted = await seedTicket(t, {
        eventId,
        ticketDate: '2026-12-02',
        status: 'checked-in',
        checkedInAt: 1,
        price: 7.5,
      });
      tickets.set(eventId, { active: active.ticketId, admitted: admitted.ticketId });
    }
    const beside = await seedTicket(t, { ticketDate: '2026-12-01' });

    await Promise.all(ids.map((eventId) => events.delete(eventId)));
    expect(await stamped(ids)).toEqual([]);
    for (const eventId of ids) {
      expectStatus(await request(t.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH), 404);
    }
    const read = async (ticketId: string) =>
      (await request(t.baseUrl).get(`/tickets/${ticketId}`).set('Authorization', AUTH)).body as Record<string, unknown>;
    for (const { active, admitted } of tickets.values()) {
      expect(await read(active)).toMatchObject({ status: 'cancelled', refundDue: 19.99 });
      expect(await read(admitted)).toMatchObject({ status: 'cancelled', refundDue: 0 });
    }
    // A ticket of no deleted event is left as it was.
    expect(await read(beside.ticketId)).toMatchObject({ status: 'active' });

    await receiver.waitFor(() => receiver.acknowledged().length >= 2 * 2 * EVENTS);
    const deliveries = receiver.acknowledged();
    expect(deliveries).toHaveLength(2 * 2 * EVENTS);
    for (const path of ['/a', '/b']) {
      for (const [i, eventId] of ids.entries()) {
        const mine = deliveries.filter(
          (delivery) =>
            delivery.path === path && (JSON.parse(delivery.body) as { eventId: string }).eventId === eventId,
        );
        expect(mine.map(({ headers }) => headers['museum-event-type'])).toEqual([
          'special-event.created',
          'special-event.deleted',
        ]);
        expect(JSON.parse(mine[0].body)).toMatchObject({ eventId, name: `Batch ${i}` });
        expect(mine[1].body).toBe(JSON.stringify({ eventId }));
      }
    }
    // On MySQL each turn's writes went as one batch, so its participants were asked for all of
    // them at once; on SQLite each went alone (the group commit shares the transaction instead).
    const batches = all.mock.calls
      .map(([changes]) => changes.map(({ kind }) => kind))
      .filter((kinds) => kinds.length > 1);
    expect(batches).toEqual(
      t.app.get(Sql).isMysql ? [Array(EVENTS).fill('created'), Array(EVENTS).fill('deleted')] : [],
    );
  });
});
