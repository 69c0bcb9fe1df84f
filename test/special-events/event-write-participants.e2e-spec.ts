import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { FAILING_NAME, JOURNAL_TABLE, JournalModule } from './participant-module/journal.module.js';

/**
 * EventWriteParticipants: another module's statements run in the same transaction as an event's
 * create, update and delete (on SQLite the group commit's, on MySQL the batch's), only when the
 * event's own write took effect, and a failing one takes the event's write down with it.
 */

const t = useTestApp({}, { features: [{ module: JournalModule }] });

beforeAll(async () => {
  await t.app.get(DataSource).query(JOURNAL_TABLE);
});

const body = (name: string, eventId?: string): Record<string, unknown> => ({
  ...(eventId ? { eventId } : {}),
  name,
  location: 'Hall 1',
  eventDescription: 'A talk.',
  dates: ['2030-01-02'],
  price: 5,
});

const create = (payload: Record<string, unknown>): request.Test =>
  request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(payload);

async function journalOf(eventId: string): Promise<{ kind: string; name: string }[]> {
  const rows: { kind: string; name: string }[] = await t.app
    .get(DataSource)
    .query('SELECT kind, name FROM participant_journal WHERE event_id = ?', [eventId]);
  return rows.map(({ kind, name }) => ({ kind, name }));
}

describe('a module joining special events writes', () => {
  it('writes its rows with a create, an update and a delete, and none for writes that changed nothing', async () => {
    const eventId = randomUUID();
    expectStatus(await create(body('First', eventId)), 201);
    expectStatus(await create(body('Duplicate', eventId)), 409);
    expectStatus(
      await request(t.baseUrl)
        .patch(`/special-events/${eventId}`)
        .set('Authorization', AUTH)
        .set('Content-Type', 'application/merge-patch+json')
        .send({ name: 'Second' }),
      200,
    );
    expectStatus(await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH), 204);
    expectStatus(await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH), 404);
    expect(await journalOf(eventId)).toEqual([
      { kind: 'created', name: 'First' },
      { kind: 'updated', name: 'Second' },
      { kind: 'deleted', name: '' },
    ]);
  });

  it('fails the event write when its statement fails, keeping neither, and the writes beside it go through', async () => {
    const ids = Array.from({ length: 12 }, () => randomUUID());
    const failing = ids[5];
    // Sent together, so that on both databases they share one batch (group commit, multi-row INSERT).
    const answers = await Promise.all(ids.map((id) => create(body(id === failing ? FAILING_NAME : 'Fine', id))));
    expect(answers.map(({ status }) => status)).toEqual(ids.map((id) => (id === failing ? 500 : 201)));
    const stored = await request(t.baseUrl).get(`/special-events/${failing}`).set('Authorization', AUTH);
    expectStatus(stored, 404);
    expect(await journalOf(failing)).toEqual([]);
    for (const id of ids.filter((id) => id !== failing))
      expect(await journalOf(id)).toEqual([{ kind: 'created', name: 'Fine' }]);
  });
});
