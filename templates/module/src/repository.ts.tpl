import { Injectable } from '@nestjs/common';
import { columnOf, insertInto, type RowOf, selectList, tableOf } from '../database/entity-columns.js';
import { Sql } from '../database/sql.js';
import { {{Singular}} } from './{{singular}}.entity.js';

const TABLE = tableOf({{Singular}});
const SELECT_ONE = `SELECT ${selectList({{Singular}})} FROM ${TABLE} WHERE ${columnOf({{Singular}}, '{{singularCamel}}Id')} = ?`;
const DELETE_ONE = `DELETE FROM ${TABLE} WHERE ${columnOf({{Singular}}, '{{singularCamel}}Id')} = ?`;
const COLUMNS = ['{{singularCamel}}Id', 'name', 'updatedAt'] as const satisfies readonly (keyof {{Singular}})[];
const INSERT = insertInto({{Singular}}, COLUMNS);

/** A row as read: MySQL returns a bigint as a string. */
function to{{Singular}}(row: RowOf<{{Singular}}>): {{Singular}} {
  return { ...row, updatedAt: Number(row.updatedAt) };
}

/** The `{{table}}` table: every statement on it, through Sql (never a driver or TypeORM handle). */
@Injectable()
export class {{Plural}}Repository {
  constructor(private readonly sql: Sql) {}

  async find({{singularCamel}}Id: string): Promise<{{Singular}} | undefined> {
    const [row] = await this.sql.select<RowOf<{{Singular}}>>(SELECT_ONE, [{{singularCamel}}Id]);
    return row === undefined ? undefined : to{{Singular}}(row);
  }

  /** Stores the {{singularWords}} under its id, replacing what was there, all or nothing. */
  async store({{singularCamel}}: {{Singular}}): Promise<void> {
    await this.sql.transaction([
      { sql: DELETE_ONE, parameters: [{{singularCamel}}.{{singularCamel}}Id] },
      { sql: INSERT, parameters: COLUMNS.map((column) => {{singularCamel}}[column]) },
    ]);
  }

  /** True when a row was deleted. */
  async remove({{singularCamel}}Id: string): Promise<boolean> {
    return (await this.sql.execute(DELETE_ONE, [{{singularCamel}}Id])) > 0;
  }
}
