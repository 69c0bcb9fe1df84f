import { Injectable } from '@nestjs/common';
import { Sql } from '../../src/database/sql.js';
import type { ExhibitDto } from './exhibit.dto.js';

interface ExhibitRow {
  readonly title: string;
  readonly room: number | string;
}

/** The exhibits' table: all of this module's SQL, its row type and its mapping. */
@Injectable()
export class ExhibitsRepository {
  constructor(private readonly sql: Sql) {}

  async find(exhibitId: string): Promise<ExhibitDto | undefined> {
    const [row] = await this.sql.select<ExhibitRow>('SELECT title, room FROM exhibits WHERE exhibit_id = ?', [
      exhibitId,
    ]);
    return row === undefined ? undefined : { title: row.title, room: Number(row.room) };
  }

  /** Stores the exhibit under its id, replacing what was there, in one transaction. */
  async store(exhibitId: string, exhibit: ExhibitDto): Promise<void> {
    await this.sql.transaction([
      { sql: 'DELETE FROM exhibits WHERE exhibit_id = ?', parameters: [exhibitId] },
      {
        sql: 'INSERT INTO exhibits (exhibit_id, title, room) VALUES (?, ?, ?)',
        parameters: [exhibitId, exhibit.title, exhibit.room],
      },
    ]);
  }

  async count(): Promise<number> {
    const [row] = await this.sql.select<{ n: number | string }>('SELECT COUNT(*) AS n FROM exhibits');
    return Number(row.n);
  }
}
