import { Injectable } from '@nestjs/common';
import { columnOf, insertInto, type RowOf, selectList, tableOf } from '../database/entity-columns.js';
import { Sql, type SqlStatement } from '../database/sql.js';
import { Order } from './order.entity.js';

const TABLE = tableOf(Order);
const SELECT_ONE = `SELECT ${selectList(Order)} FROM ${TABLE} WHERE ${columnOf(Order, 'orderId')} = ?`;
const COLUMNS = ['orderId', 'email', 'total', 'createdAt'] as const satisfies readonly (keyof Order)[];
const INSERT = insertInto(Order, COLUMNS);

/** A row as read: MySQL returns a bigint as a string. */
function toOrder(row: RowOf<Order>): Order {
  return { ...row, total: Number(row.total), createdAt: Number(row.createdAt) };
}

/** The `orders` table: every statement on it, through Sql. */
@Injectable()
export class OrdersRepository {
  constructor(private readonly sql: Sql) {}

  async find(orderId: string): Promise<Order | undefined> {
    const [row] = await this.sql.select<RowOf<Order>>(SELECT_ONE, [orderId], { exact: true });
    return row === undefined ? undefined : toOrder(row);
  }

  /** The INSERT of a placed order, for the transaction that sells its tickets. */
  insertStatement(order: Order): SqlStatement {
    return { sql: INSERT, parameters: COLUMNS.map((column) => order[column]) };
  }
}
