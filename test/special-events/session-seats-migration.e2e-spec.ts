import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it } from 'vitest';
import { releaseBefore } from '../helpers/migration-history.js';

/**
 * The migration that gives sessions seats of their own (special_event_sessions), on SQLite and
 * MySQL alike: each event that exists when it runs gets a row, 0 sold, for each of its items in
 * the session form, once; other items get none; reverting it drops the table and keeps the events.
 */

describe('the migration of session seats', () => {
  // No app sets the log levels here: Nest's default logger would print every query TypeORM runs
  // (the service's TypeOrmLogger logs them at verbose), hundreds of lines of noise in CI's log.
  beforeAll(() => Logger.overrideLogger(['warn', 'error']));

  it("gives each existing event's sessions a row with 0 sold, and nothing else", async () => {
    const { database, options, old, later } = await releaseBefore('EventSessions1795849324199');
    try {
      const dates = [
        '2031-04-01T18:00',
        '2031-04-01T14:00',
        '2031-04-01T14:00',
        '2031-04-02',
        '2031-04-03T10:00Z',
        'soon',
      ];
      await old.query(
        'INSERT INTO special_events (event_id, name, location, event_description, dates, price, version, sort_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        ['a0000000-0000-4000-8000-000000000000', 'A', 'L', 'D', JSON.stringify(dates), 1, 1, '2031-04-01'],
      );
      await old.query(
        'INSERT INTO special_events (event_id, name, location, event_description, dates, price, version, sort_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        ['b0000000-0000-4000-8000-000000000000', 'B', 'L', 'D', '["2031-04-01"]', 1, 1, '2031-04-01'],
      );
      await old.destroy();
      const upgraded = new DataSource({ ...options, migrationsRun: true });
      await upgraded.initialize();
      try {
        const rows = (await upgraded.query(
          'SELECT event_id, session, tickets_sold FROM special_event_sessions ORDER BY session',
        )) as { event_id: string; session: string; tickets_sold: number | string }[];
        expect(rows.map((row) => ({ ...row, tickets_sold: Number(row.tickets_sold) }))).toEqual([
          { event_id: 'a0000000-0000-4000-8000-000000000000', session: '2031-04-01T14:00', tickets_sold: 0 },
          { event_id: 'a0000000-0000-4000-8000-000000000000', session: '2031-04-01T18:00', tickets_sold: 0 },
        ]);
        for (let i = 0; i <= later; i++) await upgraded.undoLastMigration();
        await expect(upgraded.query('SELECT session FROM special_event_sessions')).rejects.toThrow(
          /special_event_sessions/,
        );
        await expect(upgraded.query('SELECT event_id FROM special_events')).resolves.toHaveLength(2);
      } finally {
        await upgraded.destroy();
      }
    } finally {
      if (old.isInitialized) await old.destroy();
      await database.drop();
    }
  });
});
