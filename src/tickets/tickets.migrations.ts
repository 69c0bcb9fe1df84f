import type { DriverMigrations } from '../database/migration-history.js';
import { Tickets1764400002000 as MysqlTickets } from './migrations/mysql/1764400002000-tickets.js';
import { Tickets1764400002000 as SqliteTickets } from './migrations/sqlite/1764400002000-tickets.js';
import { TicketRefunds1764600049000 as MysqlTicketRefunds } from './migrations/mysql/1764600049000-ticket-refunds.js';
import { TicketRefunds1764600049000 as SqliteTicketRefunds } from './migrations/sqlite/1764600049000-ticket-refunds.js';
import { TicketTime1795842085466 as MysqlTicketTime } from './migrations/mysql/1795842085466-ticket-time.js';
import { TicketTime1795842085466 as SqliteTicketTime } from './migrations/sqlite/1795842085466-ticket-time.js';
import { TicketOrder1795849453540 as MysqlTicketOrder } from './migrations/mysql/1795849453540-ticket-order.js';
import { TicketOrder1795849453540 as SqliteTicketOrder } from './migrations/sqlite/1795849453540-ticket-order.js';
import { TicketCategory1795849453541 as MysqlTicketCategory } from './migrations/mysql/1795849453541-ticket-category.js';
import { TicketCategory1795849453541 as SqliteTicketCategory } from './migrations/sqlite/1795849453541-ticket-category.js';

/**
 * The tickets' table. One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- tickets <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const TICKETS_MIGRATIONS: DriverMigrations = {
  sqlite: [SqliteTickets, SqliteTicketRefunds, SqliteTicketTime, SqliteTicketOrder, SqliteTicketCategory],
  mysql: [MysqlTickets, MysqlTicketRefunds, MysqlTicketTime, MysqlTicketOrder, MysqlTicketCategory],
};
