import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectStatus } from '../helpers/problem-assertions.js';
import { useTestApp } from '../helpers/test-app.js';
import { useTestDatabase } from '../helpers/test-database.js';
import { setHoursOn } from '../museum-hours/api.js';
import { buyTicket } from '../tickets/api.js';

/**
 * On MySQL/MariaDB a slotted general sale takes the day's place and the slot's in one multi-table
 * UPDATE (TAKE_DAY_AND_SLOT_SQL). Every other transaction that writes both rows (an order, a
 * cancellation) writes the date's row of museum_general_admissions first, then the slot's row of
 * museum_slot_admissions: the sale must lock them in that order too, or two of them can deadlock.
 * Another connection holds one row while the sale waits for it, and a third asks for the other
 * without waiting: the sale holds the date's row while it waits for the slot's, never the slot's
 * while it waits for the date's. On a fake Date in 2090, the day sold weeks ahead of it.
 */

const NOW = new Date('2090-01-10T12:00:00.000Z');
const DATE = '2090-02-03';
const TIME = '10:30';
const DAY_ROW = 'SELECT sold FROM museum_general_admissions WHERE day = ? FOR UPDATE';
const SLOT_ROW = 'SELECT sold FROM museum_slot_admissions WHERE day = ? AND slot_time = ? FOR UPDATE';

describe('the locks of a slotted sale on MySQL', () => {
  const database = useTestDatabase('mysql');
  const t = useTestApp(() => ({ DATABASE_URL: database.url }));
  let holder: Connection;
  let prober: Connection;
  let watcher: Connection;

  beforeAll(async () => {
    [holder, prober, watcher] = await Promise.all([1, 2, 3].map(() => createConnection({ uri: database.url })));
  });

  afterAll(async () => {
    await Promise.all([holder, prober, watcher].map((connection) => connection?.end()));
  });

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  const sale = () => buyTicket(t.baseUrl, { ticketType: 'general', ticketDate: DATE, ticketTime: TIME });

  /** Whether `sql` finds its row free: it asks without waiting (NOWAIT), in a transaction it then ends. */
  async function lockable(sql: string, parameters: unknown[]): Promise<boolean> {
    await prober.query('START TRANSACTION');
    try {
      await prober.query(`${sql} NOWAIT`, parameters);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ER_LOCK_WAIT_TIMEOUT') throw error;
      return false;
    } finally {
      await prober.query('ROLLBACK');
    }
  }

  /** Waits until a transaction other than `holder`'s waits for a lock: the sale, at the row held. */
  async function saleWaiting(): Promise<void> {
    const [[{ id }]] = await holder.query<RowDataPacket[]>('SELECT CONNECTION_ID() AS id');
    await vi.waitFor(
      async () => {
        const [rows] = await watcher.query<RowDataPacket[]>(
          "SELECT COUNT(*) AS waiting FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT' AND trx_mysql_thread_id <> ?",
          [id],
        );
        expect(Number(rows[0].waiting)).toBe(1);
      },
      // InnoDB refreshes INNODB_TRX only when it has not been read for 100 ms: polled faster, it never changes.
      { timeout: 8000, interval: 250 },
    );
  }

  /** Holds the row `held` reads while a sale waits for it; answers whether `probe`'s row was free meanwhile. */
  async function duringSaleBlockedOn(held: [string, unknown[]], probe: [string, unknown[]]): Promise<boolean> {
    await holder.query('START TRANSACTION');
    let answer: Promise<unknown> = Promise.resolve();
    try {
      await holder.query(...held);
      answer = sale().then((res) => expectStatus(res, 201));
      await saleWaiting();
      return await lockable(...probe);
    } finally {
      await holder.query('ROLLBACK');
      await answer;
    }
  }

  it('locks the date’s row, then the slot’s: waiting for the slot, it holds the day; waiting for the day, not the slot', async () => {
    const hours = { timeOpen: '10:00', timeClose: '12:00', capacity: 10, slotMinutes: 30, slotCapacity: 5 };
    expectStatus(await setHoursOn(t.baseUrl, DATE, hours), 200);
    // The first sale makes both rows; the ones below find them.
    expectStatus(await sale(), 201);

    const day: [string, unknown[]] = [DAY_ROW, [DATE]];
    const slot: [string, unknown[]] = [SLOT_ROW, [DATE, TIME]];
    expect(await duringSaleBlockedOn(slot, day)).toBe(false);
    expect(await duringSaleBlockedOn(day, slot)).toBe(true);

    const [rows] = await watcher.query<RowDataPacket[]>(
      'SELECT a.sold AS day_sold, s.sold AS slot_sold FROM museum_general_admissions a ' +
        'JOIN museum_slot_admissions s ON s.day = a.day AND s.slot_time = ? WHERE a.day = ?',
      [TIME, DATE],
    );
    expect(rows.map((row) => [Number(row.day_sold), Number(row.slot_sold)])).toEqual([[3, 3]]);
  });
});
