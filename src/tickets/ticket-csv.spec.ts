import { describe, expect, it } from 'vitest';
import { csvHeader, csvRows, csvText } from './ticket-csv.js';
import type { ExportRow } from './tickets.repository.js';

const TICKET: ExportRow = [
  '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f',
  'event',
  '2026-12-05',
  '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e10',
  'a@example.com',
  'child',
  19.99,
  'ticket-3q2-7wVk9mRr1bXoYl0Tfg',
  'cancelled',
  Date.UTC(2026, 11, 1, 10),
  null,
  String(Date.UTC(2026, 11, 1, 11)),
  19.99,
];
const GENERAL: ExportRow = [
  TICKET[0],
  'general',
  TICKET[2],
  null,
  null,
  null,
  19.99,
  TICKET[7],
  'active',
  TICKET[9],
  null,
  null,
  null,
];

describe('the CSV of tickets', () => {
  it('writes one CRLF line per ticket in the header’s columns, empty for null', () => {
    expect(csvHeader(true)).toBe(
      'ticketId,ticketType,ticketDate,eventId,email,category,price,confirmationCode,status,createdAt,checkedInAt,cancelledAt,refundDue\r\n',
    );
    expect(csvRows([TICKET, GENERAL], true)).toBe(
      '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f,event,2026-12-05,0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e10,a@example.com,child,19.99,ticket-3q2-7wVk9mRr1bXoYl0Tfg,cancelled,2026-12-01T10:00:00.000Z,,2026-12-01T11:00:00.000Z,19.99\r\n' +
        '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f,general,2026-12-05,,,,19.99,ticket-3q2-7wVk9mRr1bXoYl0Tfg,active,2026-12-01T10:00:00.000Z,,,\r\n',
    );
  });

  it('leaves out the email and the confirmation code for a viewer, header and rows alike', () => {
    expect(csvHeader(false)).toBe(
      'ticketId,ticketType,ticketDate,eventId,category,price,status,createdAt,checkedInAt,cancelledAt,refundDue\r\n',
    );
    const row = csvRows([TICKET], false);
    expect(row).not.toContain('example.com');
    expect(row).not.toContain('ticket-3q2');
    expect(row.split(',')).toHaveLength(11);
  });

  it('quotes what must be quoted and never starts a field with a formula', () => {
    expect(csvText('plain@example.com')).toBe('plain@example.com');
    expect(csvText('"a,b"@example.com')).toBe('"""a,b""@example.com"');
    expect(csvText('=cmd@example.com')).toBe("'=cmd@example.com");
    expect(csvText('+1@example.com')).toBe("'+1@example.com");
    expect(csvText('@x,y')).toBe('"\'@x,y"');
    expect(csvRows([[...GENERAL.slice(0, 5), '=1+1', ...GENERAL.slice(6)] as unknown as ExportRow], false)).toContain(
      ",'=1+1,",
    );
  });
});
