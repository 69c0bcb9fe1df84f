import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, validEvent } from './helpers/problem-assertions.js';
import { AUTH, useTestApp } from './helpers/test-app.js';
import { CHROMIUM, CHROMIUM_ARGS } from './helpers/chromium.js';
import { SUITE_NOW, suiteDate, useMuseumClock } from './helpers/clock.js';
import { hoursPath, setWeeklyHours } from './museum-hours/api.js';
import { buyTicket } from './tickets/api.js';

/**
 * The example website page (examples/website/), as a museum's site would serve it: from another
 * origin, in Debian's Chromium, against the service with PUBLIC_READ=true. It shows the events
 * with their dates and seats left and the opening hours, and no request it makes carries
 * credentials (none are in its files either). Skipped without /usr/bin/chromium unless
 * BROWSER_TEST_REQUIRED=1, as test/browser.e2e-spec.ts is.
 */

const SITE = fileURLToPath(new URL('../examples/website/', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The example's files, served from 127.0.0.1 on a port of their own, with config.js written as a
 * deployment writes it: the API's address (read when the page asks: the app starts later) and the
 * museum's time zone.
 */
async function startSiteServer(apiBase: () => string): Promise<{ server: Server; origin: string }> {
  const files = new Map<string, Buffer>();
  for (const name of await readdir(SITE)) files.set(`/${name}`, await readFile(join(SITE, name)));
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const file =
      path === '/config.js'
        ? Buffer.from(
            `window.MUSEUM_API_BASE = ${JSON.stringify(apiBase())};\n` +
              `window.MUSEUM_TIME_ZONE = ${JSON.stringify(MUSEUM_ZONE)};\n`,
          )
        : files.get(path === '/' ? '/index.html' : path);
    if (file === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(path === '/' ? '.html' : path)] ?? 'application/octet-stream' });
    res.end(file);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The museum's zone, and a visitor's far from it: at SUITE_NOW (10:00 UTC) it is already the next
 * day in Kiritimati (UTC+14), so a page that took "today" from the visitor would skip a day.
 */
const MUSEUM_ZONE = 'Europe/Paris';
const VISITOR_ZONE = 'Pacific/Kiritimati';

const HAVE_CHROMIUM = existsSync(CHROMIUM);
const REQUIRED = process.env.BROWSER_TEST_REQUIRED === '1';
const MISSING = `Chromium not installed at ${CHROMIUM} (apt-get install chromium)`;
// oxlint-disable-next-line vitest/no-conditional-tests -- decided once per machine, at load
if (!HAVE_CHROMIUM) {
  describe('the example website (Chromium missing)', () => {
    it.skipIf(!REQUIRED)(`${MISSING}: skipped, or failed with BROWSER_TEST_REQUIRED=1`, () => {
      expect.fail(`BROWSER_TEST_REQUIRED=1 but ${MISSING}`);
    });
  });
}

describe.runIf(HAVE_CHROMIUM)('the example website (Chromium)', () => {
  let site: { server: Server; origin: string };
  let userDataDir: string;
  let context: BrowserContext;

  beforeAll(async () => {
    site = await startSiteServer(() => t.baseUrl);
  });

  // Public read on, and no CORS_ORIGINS: the site's origin is let in by public read alone.
  const t = useTestApp({ PUBLIC_READ: 'true', MUSEUM_TIME_ZONE: MUSEUM_ZONE });
  useMuseumClock(t);

  beforeAll(async () => {
    userDataDir = await mkdtemp(join(tmpdir(), 'website-e2e-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timezoneId: VISITOR_ZONE,
      timeout: 60_000,
    });
    context.setDefaultTimeout(30_000);
  });

  afterAll(async () => {
    await context?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
    if (site?.server.listening) {
      site.server.closeAllConnections();
      await new Promise((resolve) => site.server.close(resolve));
    }
  });

  it('has no credentials in any of its files', async () => {
    for (const name of await readdir(SITE)) {
      const text = await readFile(join(SITE, name), 'utf8');
      expect({ name, text }).toEqual({ name, text: expect.not.stringMatching(/authorization|basic |password|btoa/i) });
    }
  });

  it('shows what is on, the seats left and the opening hours, read from another origin without credentials', async () => {
    const week = { timeOpen: '10:00', timeClose: '18:00' };
    const hours = await setWeeklyHours(t.baseUrl, {
      monday: week,
      tuesday: week,
      wednesday: week,
      thursday: { timeOpen: '10:00', timeClose: '21:00' },
      friday: week,
      saturday: week,
      sunday: week,
    });
    expectStatus(hours, 200);
    const tour = validEvent({ name: 'Dinosaur night tour', dates: [suiteDate(10), suiteDate(12)], capacity: 30 });
    // A session: the museum's local time, shown as written, with its end from the duration.
    const talk = validEvent({
      name: 'Curator talk: Roman glass',
      dates: [`${suiteDate(11)}T18:30`],
      durationMinutes: 60,
    });
    const past = validEvent({ name: 'Already over', dates: [suiteDate(-30)] });
    for (const event of [tour, talk, past]) {
      expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    }
    for (let sold = 0; sold < 2; sold++) {
      const ticket = await buyTicket(t.baseUrl, {
        ticketType: 'event',
        eventId: tour.eventId,
        ticketDate: suiteDate(10),
        email: 'v@example.org',
      });
      expectStatus(ticket, 201);
    }

    const page = await context.newPage();
    // The visitor's clock reads the suite's instant too (its own zone's date is the next day).
    await page.clock.setFixedTime(SUITE_NOW);
    const apiRequests: { url: string; headers: Record<string, string> }[] = [];
    page.on('request', (sent) => {
      if (sent.url().startsWith(t.baseUrl)) {
        void sent.allHeaders().then((headers) => apiRequests.push({ url: sent.url(), headers }));
      }
    });
    const failures: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(message.text());
    });
    await page.goto(`${site.origin}/index.html`);
    await page.locator('#events li').first().waitFor();
    await page.locator('#hours li').first().waitFor();

    const events = await page.locator('#events li').evaluateAll((items) =>
      items.map((item) => ({
        name: item.querySelector('.name')?.textContent,
        dates: item.querySelector('.dates')?.textContent,
        seats: item.querySelector('.seats')?.textContent,
      })),
    );
    expect(events).toEqual([
      { name: 'Dinosaur night tour', dates: expect.stringContaining(' · ') as unknown, seats: '28 seats left' },
      {
        name: 'Curator talk: Roman glass',
        dates: expect.stringMatching(/\d{4}, 18:30–19:30$/) as unknown,
        seats: 'No booking limit',
      },
    ]);
    const days = await page.locator('#hours li').evaluateAll((items) =>
      items.map((item) => ({
        date: item.getAttribute('data-date'),
        time: item.querySelector('.time')?.textContent,
      })),
    );
    expect(days).toHaveLength(7);
    expect(days[0].date).toBe(suiteDate(0));
    for (const day of days) {
      expect(day.time).toBe(new Date(`${day.date}T12:00:00Z`).getUTCDay() === 4 ? '10:00–21:00' : '10:00–18:00');
    }
    expect(await page.locator('#events-status').textContent()).toBe('');
    expect(failures).toEqual([]);

    // Both reads reached the API from the page's origin, and none carried credentials.
    await expect.poll(() => apiRequests.length).toBeGreaterThanOrEqual(2);
    expect(apiRequests.map(({ url }) => new URL(url).pathname).sort()).toEqual([hoursPath(), '/special-events']);
    for (const { headers } of apiRequests) {
      expect(headers.origin).toBe(site.origin);
      expect(Object.keys(headers).map((name) => name.toLowerCase())).not.toContain('authorization');
      expect(headers.cookie).toBeUndefined();
    }
    await page.close();
  });

  it('takes the API address from config.js only: an ?api=… on the link changes nothing', async () => {
    const real = validEvent({ name: 'Mosaic workshop', dates: [suiteDate(5)] });
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(real), 201);
    // A decoy API that would list a forged notice under the museum's name, and counts its visitors.
    let decoyRequests = 0;
    const forged = [{ eventId: 'x', name: 'ALL EVENTS CANCELLED', dates: [suiteDate(1)], ticketsAvailable: null }];
    const decoy = createServer((_req, res) => {
      decoyRequests++;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
      res.end(JSON.stringify({ data: forged, items: forged, nextCursor: null }));
    });
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
    try {
      const decoyOrigin = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}`;
      const dataUrl = `data:application/json,${encodeURIComponent(JSON.stringify(forged))}#`;
      for (const api of [decoyOrigin, dataUrl]) {
        const page = await context.newPage();
        await page.clock.setFixedTime(SUITE_NOW);
        // Routed requests skip the browser's cache, which holds the earlier test's lists.
        await page.route(`${t.baseUrl}/**`, (route) => route.continue());
        const apiHosts: string[] = [];
        page.on('request', (sent) => {
          if (
            sent.url().startsWith('data:') ||
            sent.url().startsWith(decoyOrigin) ||
            sent.url().startsWith(t.baseUrl)
          ) {
            apiHosts.push(sent.url().startsWith(t.baseUrl) ? 'api' : 'other');
          }
        });
        await page.goto(`${site.origin}/index.html?api=${encodeURIComponent(api)}`);
        // Both lists settled, whatever they were read from.
        for (const status of ['#events-status', '#hours-status']) {
          await expect.poll(() => page.locator(status).textContent()).not.toMatch(/^Loading/);
        }
        const names = await page.locator('#events .name').allTextContents();
        expect({ api, names }).toEqual({ api, names: expect.arrayContaining(['Mosaic workshop']) as unknown });
        expect(names).not.toContain('ALL EVENTS CANCELLED');
        expect(apiHosts.filter((host) => host === 'other')).toEqual([]);
        expect(apiHosts.filter((host) => host === 'api').length).toBeGreaterThanOrEqual(2);
        await page.close();
      }
      expect(decoyRequests).toBe(0);
    } finally {
      decoy.closeAllConnections();
      await new Promise((resolve) => decoy.close(resolve));
    }
  });
});
