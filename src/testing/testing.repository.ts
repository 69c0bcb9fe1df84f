import { Injectable } from '@nestjs/common';
import type { MuseumClockSetting } from '../domain/museum-clock.js';
import { Sql } from '../database/sql.js';

/** The SQL of test mode: the shared museum clock's one row, and the reset's deletes. */
@Injectable()
export class TestingRepository {
  constructor(private readonly sql: Sql) {}

  /** The clock's setting, or undefined when it follows the real clock. */
  async clock(): Promise<MuseumClockSetting | undefined> {
    const [row] = await this.sql.select<{ now_ms: number | string; frozen: number; set_at: number | string }>(
      'SELECT now_ms, frozen, set_at FROM museum_clock WHERE id = 1',
    );
    return row === undefined
      ? undefined
      : { now: Number(row.now_ms), frozen: Number(row.frozen) === 1, setAt: Number(row.set_at) };
  }

  /** Stores the setting, or removes it (undefined) for the real clock. */
  async storeClock(setting: MuseumClockSetting | undefined): Promise<void> {
    await this.sql.transaction([
      { sql: 'DELETE FROM museum_clock', parameters: [] },
      ...(setting === undefined
        ? []
        : [
            {
              sql: 'INSERT INTO museum_clock (id, now_ms, frozen, set_at) VALUES (1, ?, ?, ?)',
              parameters: [setting.now, setting.frozen ? 1 : 0, setting.setAt],
            },
          ]),
    ]);
  }

  /**
   * Empties these tables in one transaction: a write racing the reset lands wholly before it
   * (and is emptied) or wholly after it, never half in an emptied database. The names come from
   * the modules' registrations (ResetRegistry), never from a request.
   */
  async empty(tables: readonly string[]): Promise<void> {
    await this.sql.transaction(tables.map((table) => ({ sql: `DELETE FROM ${table}`, parameters: [] })));
  }
}
