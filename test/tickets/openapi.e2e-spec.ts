import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body } from '../helpers/problem-assertions.js';
import { useTestApp } from '../helpers/test-app.js';

/** The tickets' operations in the OpenAPI document: the Museum API's operation ids and responses. */

const t = useTestApp();
let doc: { paths: Record<string, Record<string, Body>> };

beforeAll(async () => {
  doc = (await request(t.baseUrl).get('/openapi.json')).body as typeof doc;
});

const responses = (op: Body): Record<string, Body> => op.responses as Record<string, Body>;

describe('GET /openapi.json', () => {
  it('buyMuseumTickets and getTicketCode keep the Museum API operation ids; the QR code is image/png', () => {
    const buy = doc.paths['/tickets'].post;
    const code = doc.paths['/tickets/{ticketId}/qr'].get;
    expect([buy.operationId, code.operationId]).toEqual(['buyMuseumTickets', 'getTicketCode']);
    expect(Object.keys(responses(buy)).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '503',
    ]);
    expect(Object.keys((responses(code)['200'] as Body).content as Body)).toEqual(['image/png']);
  });
});
