import type { ExportRow } from './tickets.repository.js';

/**
 * A ticket search's CSV export (RFC 4180): one header line, then a line per ticket, CRLF-ended,
 * in the columns of a ticket's JSON. `withSecrets` false leaves out the columns of the
 * confirmation code and the buyer's email, as a viewer reads a ticket.
 */

const ALL_COLUMNS = [
  'ticketId',
  'ticketType',
  'ticketDate',
  'eventId',
  'email',
  'category',
  'price',
  'confirmationCode',
  'status',
  'createdAt',
  'checkedInAt',
  'cancelledAt',
  'refundDue',
] as const;

const SECRET_COLUMNS: ReadonlySet<string> = new Set(['email', 'confirmationCode']);

/** The columns a reader sees, in order. */
export function csvColumns(withSecrets: boolean): readonly string[] {
  return withSecrets ? ALL_COLUMNS : ALL_COLUMNS.filter((column) => !SECRET_COLUMNS.has(column));
}

/** The header line. */
export function csvHeader(withSecrets: boolean): string {
  return `${csvColumns(withSecrets).join(',')}\r\n`;
}

const NEEDS_QUOTES = /[",\r\n]/;
/**
 * A text a spreadsheet would run as a formula (OWASP "CSV injection"): a buyer's email
 * (`=…@example.com` is a valid address) or a price category can start so; it is written with a
 * leading `'`, which spreadsheets show as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One free-text field, quoted when it must be and never a formula. */
export function csvText(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const iso = (ms: number | string | null): string => (ms === null ? '' : new Date(Number(ms)).toISOString());

/** The lines of `rows` (as TicketsRepository.exportRows reads them), one string; an empty value for null. */
export function csvRows(rows: readonly ExportRow[], withSecrets: boolean): string {
  let text = '';
  for (const [
    id,
    type,
    date,
    eventId,
    email,
    category,
    price,
    code,
    status,
    created,
    checkedIn,
    cancelled,
    refund,
  ] of rows) {
    const secrets = withSecrets ? `${email === null ? '' : csvText(email)},` : '';
    const shownCode = withSecrets ? `${code},` : '';
    text +=
      `${id},${type},${date},${eventId ?? ''},${secrets}${category === null ? '' : csvText(category)},${price},` +
      `${shownCode}${status},${iso(created)},` +
      `${iso(checkedIn)},${iso(cancelled)},${refund ?? ''}\r\n`;
  }
  return text;
}
