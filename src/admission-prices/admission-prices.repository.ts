import { Injectable } from '@nestjs/common';
import { insertInto, type RowOf, tableOf } from '../database/entity-columns.js';
import { Sql, type SqlStatement } from '../database/sql.js';
import type { CategoryPrice } from '../domain/price-categories.js';
import { AdmissionPrice } from './admission-price.entity.js';

const TABLE = tableOf(AdmissionPrice);
const SELECT_ALL = `SELECT category, price FROM ${TABLE} ORDER BY position`;
const SELECT_ONE = `SELECT category, price FROM ${TABLE} WHERE category = ?`;
const DELETE_ALL = `DELETE FROM ${TABLE}`;
const COLUMNS = ['category', 'price', 'position'] as const satisfies readonly (keyof AdmissionPrice)[];
const INSERT = insertInto(AdmissionPrice, COLUMNS);

/** A row as read: a double may come back as a string from some drivers, read with Number(). */
function toPrice(row: Pick<RowOf<AdmissionPrice>, 'category' | 'price'>): CategoryPrice {
  return { category: row.category, price: Number(row.price) };
}

/** The `admission_prices` table: every statement on it, through Sql. */
@Injectable()
export class AdmissionPricesRepository {
  constructor(private readonly sql: Sql) {}

  /** Every category, in the order it was put. */
  async list(): Promise<CategoryPrice[]> {
    return (await this.sql.select<Pick<RowOf<AdmissionPrice>, 'category' | 'price'>>(SELECT_ALL, [])).map(toPrice);
  }

  /** One category, or undefined when there is none of that name (compared exactly). */
  async find(category: string): Promise<CategoryPrice | undefined> {
    const [row] = await this.sql.select<Pick<RowOf<AdmissionPrice>, 'category' | 'price'>>(SELECT_ONE, [category]);
    // MySQL's binary collation compares exactly; the row's own value is checked all the same.
    return row === undefined || row.category !== category ? undefined : toPrice(row);
  }

  /** Replaces every category with `prices`, in one transaction: a reader sees the old list or the new one. */
  async replace(prices: readonly CategoryPrice[]): Promise<void> {
    const statements: SqlStatement[] = [{ sql: DELETE_ALL, parameters: [] }];
    prices.forEach(({ category, price }, position) =>
      statements.push({ sql: INSERT, parameters: [category, price, position] }),
    );
    await this.sql.transaction(statements);
  }
}
