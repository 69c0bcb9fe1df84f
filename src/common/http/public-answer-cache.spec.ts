import type { ExecutionContext } from '@nestjs/common';
import express, { type Request, type Response } from 'express';
import request from 'supertest';
import { PreparedResponse } from './prepared-response.js';
import { PublicAnswerCache } from './public-answer-cache.js';
import { markAnonymousRead } from './public-read.js';

/**
 * An Express app whose one read runs through the cache as Nest would run it: anonymous when the
 * request has no Authorization header; the handler answers a page whose tag is its version, with
 * a 304 when If-None-Match names it, and counts its runs.
 */
function harness(cache: PublicAnswerCache) {
  const state = { version: 1, runs: 0 };
  const app = express();
  app.set('etag', false);
  const handler = (req: Request, res: Response): void => {
    state.runs++;
    const etag = `"v${state.version}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'public, max-age=60');
    if (req.headers['if-none-match'] === etag) res.status(304).end();
    else res.json({ version: state.version, query: req.query });
  };
  app.all('/page', (req, res) => {
    if (req.headers.authorization === undefined && req.method === 'GET') markAnonymousRead(req);
    const context = { getArgByIndex: (index: number) => [req, res][index] } as ExecutionContext;
    try {
      cache.canActivate(context);
    } catch (answer) {
      // As the problem filter does with a PreparedResponse thrown by a guard.
      if (!(answer instanceof PreparedResponse)) throw answer;
      answer.send(res);
      return;
    }
    if (req.method === 'GET') handler(req, res);
    else res.status(204).end();
  });
  return { app, state };
}

describe('PublicAnswerCache', () => {
  let now = 0;
  const cache = () => new PublicAnswerCache({ ttlMs: 1000, now: () => now });
  beforeEach(() => {
    now = 1_000_000;
  });

  it('answers a repeated anonymous read from memory until the entry expires, with its headers and a 304', async () => {
    const { app, state } = harness(cache());
    await request(app).get('/page?x=1').expect(200);
    const first = await request(app).get('/page?x=1').expect(200);
    // The first read is not kept, the second is.
    expect(state.runs).toBe(2);
    const again = await request(app).get('/page?x=1').expect(200);
    expect(again.text).toBe(first.text);
    expect(again.headers).toMatchObject({ etag: '"v1"', 'cache-control': 'public, max-age=60' });
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    await request(app).get('/page?x=1').set('If-None-Match', '"v1"').expect(304);
    expect(state.runs).toBe(2);
    // Another URL is another answer.
    await request(app).get('/page?x=2').expect(200);
    expect(state.runs).toBe(3);
    state.version = 2;
    now += 999;
    expect((await request(app).get('/page?x=1')).body).toMatchObject({ version: 1 });
    now += 1;
    // Expired: read again, and kept again at once (the URL is known to be read more than once).
    expect((await request(app).get('/page?x=1')).body).toMatchObject({ version: 2 });
    expect((await request(app).get('/page?x=1')).body).toMatchObject({ version: 2 });
    expect(state.runs).toBe(4);
  });

  it("keeps an answer on a URL's second read within sightMs, never on its first: a flood of new URLs keeps nothing", async () => {
    const { app, state } = harness(cache());
    for (let x = 0; x < 20; x++) await request(app).get(`/page?flood=${x}`).expect(200);
    expect(state.runs).toBe(20);
    // Each read a second time: run again (nothing was kept), and kept now.
    for (let x = 0; x < 20; x++) await request(app).get(`/page?flood=${x}`).expect(200);
    expect(state.runs).toBe(40);
    for (let x = 0; x < 20; x++) await request(app).get(`/page?flood=${x}`).expect(200);
    expect(state.runs).toBe(40);
    // A first read counts for sightMs (10 × the TTL): a second read after it is a first again.
    await request(app).get('/page?late=1');
    now += 10_000;
    await request(app).get('/page?late=1');
    await request(app).get('/page?late=1');
    expect(state.runs).toBe(43);
    await request(app).get('/page?late=1');
    expect(state.runs).toBe(43);
  });

  it('keeps what a 304 says: later revalidations with that tag are answered from memory', async () => {
    const { app, state } = harness(cache());
    for (let i = 0; i < 4; i++) await request(app).get('/page').set('If-None-Match', '"v1"').expect(304);
    expect(state.runs).toBe(2);
    // Without the tag, the body is needed: the handler runs, once.
    await request(app).get('/page').expect(200);
    await request(app).get('/page').expect(200);
    expect(state.runs).toBe(3);
  });

  it('never serves or keeps a read with credentials', async () => {
    const { app, state } = harness(cache());
    for (let i = 0; i < 3; i++) await request(app).get('/page').set('Authorization', 'Basic eDp5').expect(200);
    await request(app).get('/page').expect(200);
    expect(state.runs).toBe(4);
  });

  it('forgets every answer when a write ends, and keeps the next read of a URL read before', async () => {
    const { app, state } = harness(cache());
    await request(app).get('/page').expect(200);
    await request(app).get('/page').expect(200);
    state.version = 2;
    await request(app).post('/page').expect(204);
    expect((await request(app).get('/page')).body).toMatchObject({ version: 2 });
    expect(state.runs).toBe(3);
    expect((await request(app).get('/page')).body).toMatchObject({ version: 2 });
    expect(state.runs).toBe(3);
  });

  it('holds at most maxEntries answers and maxBytes of bodies, and no answer over maxEntryBytes', async () => {
    const twice = async (app: express.Express, path: string) => {
      await request(app).get(path);
      await request(app).get(path);
    };
    const { app, state } = harness(new PublicAnswerCache({ ttlMs: 1000, now: () => now, maxEntries: 2 }));
    for (const x of [1, 2, 3]) await twice(app, `/page?x=${x}`);
    expect(state.runs).toBe(6);
    await request(app).get('/page?x=3');
    expect(state.runs).toBe(6);
    await request(app).get('/page?x=1');
    expect(state.runs).toBe(7);

    const small = harness(new PublicAnswerCache({ ttlMs: 1000, now: () => now, maxEntryBytes: 10 }));
    await twice(small.app, '/page');
    await request(small.app).get('/page');
    expect(small.state.runs).toBe(3);

    const few = harness(new PublicAnswerCache({ ttlMs: 1000, now: () => now, maxBytes: 60 }));
    for (const x of [1, 2]) await twice(few.app, `/page?x=${x}`);
    // Two bodies are more than 60 bytes: keeping x=2 let x=1 go, and keeping x=1 again lets x=2 go.
    await request(few.app).get('/page?x=1');
    await request(few.app).get('/page?x=1');
    expect(few.state.runs).toBe(5);
    await request(few.app).get('/page?x=2');
    expect(few.state.runs).toBe(6);
  });
});
