import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import QRCode from 'qrcode';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { MuseumClock } from '../../src/domain/museum-clock.js';
import { pictureOfPng, y4mVideo } from '../helpers/door-camera.js';
import { expectProblem, expectStatus, expectUnauthorized, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, useTestApp } from '../helpers/test-app.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.js';
import { readHours, setWeeklyHours } from '../museum-hours/api.js';
import { buyTicket, CHECK_IN_ROUTE, checkInPath, readTicket, readTicketCode } from '../tickets/api.js';

/**
 * The door scanner (docs/door.md): the page at /door, for box office and above, in Debian's
 * Chromium driven by playwright-core. A fake camera plays a video made here from the QR code the
 * service itself draws for a ticket bought for today, and from one of an unknown code: the ticket
 * is admitted, shown again refused as already checked in, and the unknown code is refused, each
 * showing sent once however many frames it is in. Manual entry shows every outcome; scans made
 * offline wait (in localStorage too) and are sent when the network is back; the page works with
 * the browser's own Basic login and holds no credential; its Content-Security-Policy blocks inline
 * script in the browser itself.
 *
 * Without /usr/bin/chromium the tests are skipped with the reason, unless BROWSER_TEST_REQUIRED=1.
 */

const DOOR = { username: 'door', password: 'door: password 12345' };
const DOOR_AUTH = basicHeader(DOOR.username, DOOR.password);
const VIEWER = { username: 'kiosk', password: 'kiosk-password-1234' };
const CAPACITY = 40;
const OPEN_DAY = { timeOpen: '00:00', timeClose: '23:59', capacity: CAPACITY };
const OPEN_WEEK = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, OPEN_DAY]),
);

/** The policy of the page and its files: its own origin only, no inline anything. */
const PAGE_POLICY =
  "default-src 'self';object-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none';" +
  "require-trusted-types-for 'script'";

interface Ticket {
  readonly ticketId: string;
  readonly confirmationCode: string;
}

interface Shown {
  readonly outcome: string;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
}

interface Entry {
  readonly outcome: string;
  readonly code: string;
  readonly sentLater: boolean;
}

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** A code of the right shape that no ticket has (128 random bits, as the service's). */
function unknownCode(): string {
  return `ticket-${randomBytes(16).toString('base64url')}`;
}

/** The scans the page keeps for later, as it stored them (run in the page). */
const STORED_QUEUE = "localStorage.getItem('museum-door-queue')";

/** Everything the page holds or loads, as one text (run in the page). */
const EVERYTHING_HELD = `(async () => {
  const files = await Promise.all(['/door', '/door/door.js', '/door/door.css'].map((path) => fetch(path).then((res) => res.text())));
  return [document.documentElement.outerHTML, JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage }),
    document.cookie, ...files].join('\\n');
})()`;

interface Attempt {
  readonly violations: string[];
  readonly injected: boolean;
  readonly display: string;
  readonly fetched: string;
}

/**
 * What an injection would try (run in the page): an inline script, an inline style, a call to
 * another origin; with the directives each violated, as the browser reports them.
 */
const INJECTION_ATTEMPTS = `(async () => {
  const violations = [];
  document.addEventListener('securitypolicyviolation', (event) => violations.push(event.effectiveDirective));
  const script = document.createElement('script');
  try {
    script.textContent = 'window.injected = true;';
    document.head.append(script);
  } catch (error) {
    violations.push('threw ' + error.name);
  }
  const style = document.createElement('style');
  style.textContent = 'body { display: none; }';
  document.head.append(style);
  const fetched = await fetch('https://elsewhere.example/collect').then(() => 'fetched', (error) => error.name);
  await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    violations: [...new Set(violations)].sort(),
    injected: window.injected === true,
    display: getComputedStyle(document.body).display,
    fetched,
  };
})()`;

/** A computed CSS property of the element `selector` finds. */
function styleOf(page: Page, selector: string, property: string): Promise<string> {
  return page.$eval(
    selector,
    (element, name) => element.ownerDocument.defaultView?.getComputedStyle(element).getPropertyValue(name) ?? '',
    property,
  );
}

/** How long the page may take to show something: generous, since the machine may be busy. */
const SOON = { timeout: 30_000, interval: 100 };

const HAVE_CHROMIUM = existsSync(CHROMIUM);
const REQUIRED = process.env.BROWSER_TEST_REQUIRED === '1';
const MISSING = `Chromium not installed at ${CHROMIUM} (apt-get install chromium)`;
// oxlint-disable-next-line vitest/no-conditional-tests -- decided once per machine, at load
if (!HAVE_CHROMIUM) {
  process.stderr.write(
    `\n[door] ${REQUIRED ? 'FAILING' : 'SKIPPED'}: ${MISSING} (BROWSER_TEST_REQUIRED=${REQUIRED ? 1 : 0}).\n\n`,
  );
  describe('door scanner (Chromium missing)', () => {
    it.skipIf(!REQUIRED)(`${MISSING}: skipped, or failed with BROWSER_TEST_REQUIRED=1`, () => {
      expect.fail(`BROWSER_TEST_REQUIRED=1 but ${MISSING}`);
    });
  });
}

describe('door page over HTTP: who gets it, and its headers', () => {
  const t = useTestApp({ CORS_ORIGINS: 'https://app.example.org' });

  beforeAll(async () => {
    await t.app.get(UsersService).add(DOOR.username, DOOR.password, 'box-office');
    await t.app.get(UsersService).add(VIEWER.username, VIEWER.password, 'viewer');
  }, 60_000);

  it('anonymous: 401 with the Basic challenge; a viewer: 403; box office and above: the page', async () => {
    for (const path of ['/door', '/door/door.js', '/door/jsqr.js']) {
      expectUnauthorized(await request(t.baseUrl).get(path), path);
      const viewer = expectProblem(
        await request(t.baseUrl).get(path).set('Authorization', basicHeader(VIEWER.username, VIEWER.password)),
        403,
        path,
      );
      expect(viewer.detail).toBe('This operation needs the box-office role; your role is viewer.');
    }
    for (const authorization of [DOOR_AUTH, AUTH]) {
      const page = await request(t.baseUrl).get('/door').set('Authorization', authorization);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('<meta name="museum-time-zone" content="UTC" />');
    }
  });

  it('the page and its three files carry a strict Content-Security-Policy, no inline script, and 304 on reload', async () => {
    const files: [string, string][] = [
      ['/door', 'text/html; charset=utf-8'],
      ['/door/door.js', 'text/javascript; charset=utf-8'],
      ['/door/door.css', 'text/css; charset=utf-8'],
      ['/door/jsqr.js', 'text/javascript; charset=utf-8'],
    ];
    for (const [path, type] of files) {
      const res = await request(t.baseUrl).get(path).set('Authorization', DOOR_AUTH);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-security-policy']).toBe(PAGE_POLICY);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['permissions-policy']).toMatch(/^camera=\(self\), microphone=\(\)/);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await request(t.baseUrl).get(path).set('Authorization', DOOR_AUTH).set('If-None-Match', etag);
      expect(again.status).toBe(304);
    }
    const html = (await request(t.baseUrl).get('/door').set('Authorization', DOOR_AUTH)).text;
    // Every script has a src on this origin; no inline script, style or event handler.
    expect([...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag)).toEqual([
      '<script src="/door/jsqr.js" defer>',
      '<script src="/door/door.js" defer>',
    ]);
    expect(html).not.toMatch(/<style|style=|\son[a-z]+=|https?:\/\//i);
    // jsQR's browser build, as the package ships it.
    const jsqr = await request(t.baseUrl).get('/door/jsqr.js').set('Authorization', DOOR_AUTH);
    expect(jsqr.text).toMatch(/^\(function webpackUniversalModuleDefinition/);
  });

  it('nothing else of node_modules or the disk: other names are 404, deeper paths 404, other methods 405', async () => {
    for (const path of ['/door/index.d.ts', '/door/jsQR.js', '/door/door.html', '/door/package.json', '/door/x.js']) {
      expectProblem(await request(t.baseUrl).get(path).set('Authorization', DOOR_AUTH), 404, path);
    }
    for (const path of ['/door/..%2Fpackage.json', '/door/%2e%2e%2fpackage.json']) {
      expect((await request(t.baseUrl).get(path).set('Authorization', DOOR_AUTH)).status).toBe(404);
    }
    expectProblem(
      await request(t.baseUrl).get('/door/page/door.js').set('Authorization', DOOR_AUTH),
      404,
      '/door/page/door.js',
    );
    expectProblem(await request(t.baseUrl).post('/door').set('Authorization', DOOR_AUTH), 405, '/door');
    // Not an API operation: the OpenAPI document does not list it.
    const doc = (await request(t.baseUrl).get('/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/door'))).toEqual([]);
  });
  it('a write a browser marks as cross-site is 403 before anything runs, unless its Origin is listed', async () => {
    const event = validEvent();
    const forged = await request(t.baseUrl)
      .post('/special-events')
      .set({ Authorization: AUTH, 'Sec-Fetch-Site': 'cross-site', Origin: 'https://elsewhere.example' })
      .send(event);
    expect(expectProblem(forged, 403, '/special-events').detail).toBe(
      "A page of another site may not change anything here with this browser's login.",
    );
    expect(forged.headers.connection).toBe('close');
    const sameSite = await request(t.baseUrl)
      .delete(`/special-events/${event.eventId as string}`)
      .set({ Authorization: AUTH, 'Sec-Fetch-Site': 'same-site' });
    expectProblem(sameSite, 403, `/special-events/${event.eventId as string}`);
    // Nothing was created: the same eventId is free.
    expectStatus(
      await request(t.baseUrl)
        .get(`/special-events/${event.eventId as string}`)
        .set('Authorization', AUTH),
      404,
    );
    // A listed origin, the service's own pages, a navigation the user made, clients without the
    // header, and reads from anywhere pass.
    for (const headers of [
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://app.example.org' },
      { 'Sec-Fetch-Site': 'same-origin' },
      { 'Sec-Fetch-Site': 'none' },
      {},
    ]) {
      const created = await request(t.baseUrl)
        .post('/special-events')
        .set({ Authorization: AUTH, ...headers })
        .send(validEvent());
      expectStatus(created, 201);
    }
    const read = await request(t.baseUrl)
      .get('/special-events?limit=1')
      .set({ Authorization: AUTH, 'Sec-Fetch-Site': 'cross-site', Origin: 'https://elsewhere.example' });
    expectStatus(read, 200);
  });
});

describe.runIf(HAVE_CHROMIUM)('door scanner in Chromium', () => {
  const t = useTestApp();
  let today: string;
  let workDir: string;
  /** A browser whose camera is refused: the page falls back to typed codes. */
  let browser: Browser;

  beforeAll(async () => {
    await t.app.get(UsersService).add(DOOR.username, DOOR.password, 'box-office');
    expectStatus(await setWeeklyHours(t.baseUrl, OPEN_WEEK), 200);
    today = t.app.get(MuseumClock).today();
    workDir = await mkdtemp(join(tmpdir(), 'door-e2e-'));
    // A camera prompt is refused at once, as a person would refuse it: the page must fall back to typed codes.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS, '--deny-permission-prompts'],
      timeout: 60_000,
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  async function buyGeneral(ticketDate: string): Promise<Ticket> {
    const res = await buyTicket(
      t.baseUrl,
      { ticketType: 'general', ticketDate, email: 'visitor@example.com' },
      DOOR_AUTH,
    );
    expectStatus(res, 201);
    return res.body as Ticket;
  }

  async function ticketStatus(ticketId: string): Promise<string> {
    const res = await readTicket(t.baseUrl, ticketId);
    expectStatus(res, 200);
    return (res.body as { status: string }).status;
  }

  async function seatsLeft(): Promise<number> {
    const res = await readHours(t.baseUrl, { limit: 1 });
    const [day] = res.body as { date: string; ticketsAvailable: number }[];
    expect(day.date).toBe(today);
    return day.ticketsAvailable;
  }

  /** A context logged in as the door user with the browser's own Basic login (a 401 answered, then cached). */
  function doorContext(on: Browser, options: { permissions?: string[] } = {}): Promise<BrowserContext> {
    return on.newContext({
      httpCredentials: { username: DOOR.username, password: DOOR.password },
      ...options,
    });
  }

  async function openDoor(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const response = await page.goto(`${t.baseUrl}/door`);
    expect(response?.status()).toBe(200);
    // A locator, not waitForFunction: a string function is an eval, which the page's policy refuses.
    await page.locator('#seats[data-updated-at]').waitFor({ state: 'attached' });
    return page;
  }

  function history(page: Page): Promise<Entry[]> {
    return page.$$eval('#history li', (items) =>
      items
        .map((item) => ({
          outcome: item.dataset.outcome ?? '',
          code: item.dataset.code ?? '',
          sentLater: item.dataset.sentLater === 'true',
        }))
        .reverse(),
    );
  }

  function shown(page: Page): Promise<Shown> {
    return page.$eval('#result', (result) => ({
      outcome: result.dataset.outcome ?? '',
      code: result.dataset.code ?? '',
      title: result.querySelector('.outcome-title')?.textContent ?? '',
      detail: result.querySelector('.outcome-detail')?.textContent ?? '',
    }));
  }

  /** Types a code and presses Enter; resolves with what the page shows once the API has answered. */
  async function typeCode(page: Page, code: string): Promise<Shown> {
    const before = await page.locator('#history li').count();
    await page.fill('#code', code);
    await page.press('#code', 'Enter');
    await expect.poll(() => page.locator('#history li').count(), SOON).toBe(before + 1);
    return shown(page);
  }

  function checkInsLogged(): Record<string, unknown>[] {
    return t.logs.filter((line) => line.method === 'POST' && line.route === '/check-ins');
  }

  describe('with a fake camera playing real ticket QR codes', () => {
    let cameraBrowser: Browser;
    let admitted: Ticket;
    let unknown: string;

    beforeAll(async () => {
      admitted = await buyGeneral(today);
      const qr = await readTicketCode(t.baseUrl, admitted.ticketId, DOOR_AUTH)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      if (qr.status !== 200) throw new Error(`getTicketCode answered ${qr.status}`);
      unknown = unknownCode();
      const ticketPicture = pictureOfPng(qr.body as Buffer);
      const unknownPicture = pictureOfPng(
        await QRCode.toBuffer(unknown, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 }),
      );
      const size = Math.ceil((Math.max(ticketPicture.width, unknownPicture.width) + 32) / 16) * 16;
      // 10 frames a second: each code 1.5 s in view, then 2 s of white (longer than the page's 1 s
      // that makes a code seen again a new scan). Chromium loops the file.
      const video = join(workDir, 'tickets.y4m');
      await writeFile(
        video,
        y4mVideo(
          [
            { picture: ticketPicture, frames: 15 },
            { picture: null, frames: 20 },
            { picture: ticketPicture, frames: 15 },
            { picture: null, frames: 20 },
            { picture: unknownPicture, frames: 15 },
            { picture: null, frames: 20 },
          ],
          size,
          10,
        ),
      );
      cameraBrowser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [
          ...CHROMIUM_ARGS,
          '--use-fake-device-for-media-stream',
          '--use-fake-ui-for-media-stream',
          `--use-file-for-fake-video-capture=${video}`,
        ],
        timeout: 60_000,
      });
    }, 120_000);

    afterAll(async () => {
      await cameraBrowser?.close();
    });

    it('admits the ticket, refuses it when shown again (already checked in, and when), refuses the unknown code; each showing is sent once', async () => {
      const context = await doorContext(cameraBrowser, { permissions: ['camera'] });
      try {
        const page = await openDoor(context);
        await expect
          .poll(() => page.locator('#history li').count(), { timeout: 60_000, interval: 100 })
          .toBeGreaterThanOrEqual(3);
        await page.click('#camera-toggle');
        expect(await page.getAttribute('#camera-status', 'data-state')).toBe('off');
        // Whatever was in flight when the camera stopped has its answer.
        await expect.poll(() => page.getAttribute('#result', 'data-outcome'), SOON).not.toBe('sending');
        const entries = await history(page);
        // The video starts with the ticket; every showing after these three repeats one of them.
        expect(entries.slice(0, 3)).toEqual([
          { outcome: 'admitted', code: admitted.confirmationCode, sentLater: false },
          { outcome: 'already-checked-in', code: admitted.confirmationCode, sentLater: false },
          { outcome: 'unknown', code: unknown, sentLater: false },
        ]);
        for (const entry of entries.slice(3)) expect(entry.outcome).not.toBe('admitted');
        // One request per showing, though each was in view for about fifteen frames.
        expect(checkInsLogged()).toHaveLength(entries.length);
        expect(await ticketStatus(admitted.ticketId)).toBe('checked-in');
        const text = await page.locator('#history').innerText();
        expect(text).toContain('Admitted');
        expect(text).toContain('Already checked in');
        expect(text).toContain('Unknown ticket');
      } finally {
        await context.close();
      }
    }, 120_000);
  });

  it('manual entry shows every outcome in large type and colour, and the seats left today are refreshed', async () => {
    const context = await doorContext(browser);
    try {
      const first = await buyGeneral(today);
      const tomorrow = await buyGeneral(dayAfter(today));
      const event = validEvent({ dates: [today], capacity: 10 });
      expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
      const eventTicket = await buyTicket(
        t.baseUrl,
        { ticketType: 'event', eventId: event.eventId, ticketDate: today },
        DOOR_AUTH,
      );
      expectStatus(eventTicket, 201);
      expectStatus(
        await request(t.baseUrl)
          .delete(`/special-events/${event.eventId as string}`)
          .set('Authorization', AUTH),
        204,
      );

      const page = await openDoor(context);
      // No camera for this page: it says so and takes typed codes.
      await expect.poll(() => page.getAttribute('#camera-status', 'data-state'), SOON).toBe('unavailable');
      expect(await page.locator('#camera-status').innerText()).toMatch(
        /^Camera unavailable \((NotAllowedError|NotFoundError)\): type the codes\.$/,
      );
      const seats = await seatsLeft();
      expect(await page.getAttribute('#seats', 'data-seats')).toBe(String(seats));
      expect(await page.locator('#seats').innerText()).toBe(`Seats left today: ${seats}`);

      const ok = await typeCode(page, ` ${first.confirmationCode} `);
      expect(ok).toMatchObject({ outcome: 'admitted', code: first.confirmationCode, title: 'Admitted' });
      expect(ok.detail).toContain(`General admission · ${today}`);
      expect(await styleOf(page, '#result', 'background-color')).toBe('rgb(10, 125, 44)');
      expect(Number.parseFloat(await styleOf(page, '#result .outcome-title', 'font-size'))).toBeGreaterThanOrEqual(36);

      const again = await typeCode(page, first.confirmationCode);
      expect(again).toMatchObject({ outcome: 'already-checked-in', title: 'Already checked in' });
      expect(again.detail).toMatch(/^First checked in at \d\d:\d\d:\d\d /);
      expect(await styleOf(page, '#result', 'background-color')).toBe('rgb(179, 92, 0)');

      const notToday = await typeCode(page, tomorrow.confirmationCode);
      expect(notToday).toMatchObject({ outcome: 'not-for-today', title: 'Not for today' });
      expect(notToday.detail).toContain(`This ticket is for ${dayAfter(today)}; today is ${today}`);

      const cancelled = await typeCode(page, (eventTicket.body as Ticket).confirmationCode);
      expect(cancelled).toMatchObject({ outcome: 'cancelled', title: 'Cancelled' });
      expect(cancelled.detail).toContain('was cancelled on');
      expect(await styleOf(page, '#result', 'background-color')).toBe('rgb(176, 0, 32)');

      // A ticket for one of an event's sessions today: the event's name, the session's time and
      // end; the later session's ticket is too early. The museum's clock at 14:05 today (UTC).
      const tour = validEvent({
        name: 'Gallery tour',
        dates: [`${today}T18:00`, `${today}T14:00`],
        durationMinutes: 60,
      });
      expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(tour), 201);
      const tourTicket = async (ticketTime: string): Promise<Ticket> => {
        const bought = await buyTicket(
          t.baseUrl,
          { ticketType: 'event', eventId: tour.eventId, ticketDate: today, ticketTime },
          DOOR_AUTH,
        );
        expectStatus(bought, 201);
        return bought.body as Ticket;
      };
      const [two, six] = [await tourTicket('14:00'), await tourTicket('18:00')];
      t.app.get(MuseumClock).set(Date.parse(`${today}T14:05:00Z`), true);
      try {
        const toured = await typeCode(page, two.confirmationCode);
        expect(toured).toMatchObject({ outcome: 'admitted', title: 'Admitted' });
        expect(toured.detail).toContain(`Special event · Gallery tour · ${today} 14:00–15:00 (`);
        const early = await typeCode(page, six.confirmationCode);
        expect(early).toMatchObject({ outcome: 'too-early', title: 'Too early' });
        expect(early.detail).toContain("This ticket's time is 18:00; entry opens at 17:45.");
        expect(await styleOf(page, '#result', 'background-color')).toBe('rgb(179, 92, 0)');
      } finally {
        t.app.get(MuseumClock).reset();
      }

      expect(await typeCode(page, unknownCode())).toMatchObject({ outcome: 'unknown', title: 'Unknown ticket' });
      expect(await typeCode(page, 'https://example.com/not-a-ticket')).toMatchObject({
        outcome: 'not-a-ticket',
        title: 'Not a ticket',
      });
      expect(await ticketStatus(first.ticketId)).toBe('checked-in');
      expect(await ticketStatus(tomorrow.ticketId)).toBe('active');

      // A ticket sold at the box office: the count follows after the next scan.
      await buyGeneral(today);
      expect(await seatsLeft()).toBe(seats - 1);
      await typeCode(page, unknownCode());
      await expect.poll(() => page.getAttribute('#seats', 'data-seats'), SOON).toBe(String(seats - 1));
    } finally {
      await context.close();
    }
  }, 120_000);

  it('offline: scans wait (in localStorage too), are sent when the network is back, and their results shown then', async () => {
    const context = await doorContext(browser);
    try {
      const first = await buyGeneral(today);
      const second = await buyGeneral(today);
      const page = await openDoor(context);
      const sentBefore = checkInsLogged().length;

      await context.setOffline(true);
      await page.fill('#code', first.confirmationCode);
      await page.press('#code', 'Enter');
      await expect.poll(() => page.getAttribute('#queue', 'data-count'), SOON).toBe('1');
      expect(await shown(page)).toMatchObject({ outcome: 'queued', code: first.confirmationCode });
      expect(await page.locator('#queue').innerText()).toBe('1 scan waiting for the network');
      const stored = await page.evaluate<string | null>(STORED_QUEUE);
      expect(JSON.parse(stored ?? '[]')).toEqual([expect.objectContaining({ code: first.confirmationCode })]);
      expect(checkInsLogged().length).toBe(sentBefore);
      expect(await ticketStatus(first.ticketId)).toBe('active');

      await context.setOffline(false);
      await expect.poll(() => page.locator('#history li').count(), SOON).toBe(1);
      expect(await history(page)).toEqual([{ outcome: 'admitted', code: first.confirmationCode, sentLater: true }]);
      const result = await shown(page);
      expect(result.outcome).toBe('admitted');
      expect(result.detail).toMatch(/scanned at \d\d:\d\d:\d\d, sent later$/);
      expect(await page.isHidden('#queue')).toBe(true);
      expect(await page.evaluate<string | null>(STORED_QUEUE)).toBeNull();
      expect(await ticketStatus(first.ticketId)).toBe('checked-in');

      // A scan queued offline survives the page: the next page sends it.
      await context.setOffline(true);
      await page.fill('#code', second.confirmationCode);
      await page.press('#code', 'Enter');
      await expect.poll(() => page.getAttribute('#queue', 'data-count'), SOON).toBe('1');
      await page.close();
      await context.setOffline(false);
      expect(await ticketStatus(second.ticketId)).toBe('active');
      const next = await openDoor(context);
      await expect.poll(() => next.locator('#history li').count(), SOON).toBe(1);
      expect(await history(next)).toEqual([{ outcome: 'admitted', code: second.confirmationCode, sentLater: true }]);
      expect(await ticketStatus(second.ticketId)).toBe('checked-in');
      expect(checkInsLogged().length).toBe(sentBefore + 2);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("works with the browser's Basic login and holds no credential; without one the browser gets the 401 challenge; inline script is blocked", async () => {
    const anonymous = await browser.newContext();
    try {
      const page = await anonymous.newPage();
      const challenged = page.waitForResponse(`${t.baseUrl}/door`);
      // With no login to give, the browser gives up on the challenge (a person would be asked).
      await expect(page.goto(`${t.baseUrl}/door`)).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/);
      const response = await challenged;
      expect(response.status()).toBe(401);
      expect(await response.headerValue('www-authenticate')).toBe('Basic realm="museum", charset="UTF-8"');
    } finally {
      await anonymous.close();
    }

    const context = await doorContext(browser);
    try {
      const ticket = await buyGeneral(today);
      const page = await openDoor(context);
      const before = checkInsLogged().length;
      expect(await typeCode(page, ticket.confirmationCode)).toMatchObject({ outcome: 'admitted' });
      // The browser sent the login it was given: the API saw the door user.
      expect(checkInsLogged().slice(before)).toEqual([expect.objectContaining({ status: 200, user: DOOR.username })]);

      // Nothing the page has or loads holds the password or an Authorization value.
      const held = await page.evaluate<string>(EVERYTHING_HELD);
      expect(held).not.toContain(DOOR.password);
      expect(held).not.toContain(DOOR_AUTH.slice('Basic '.length));
      expect(held).not.toMatch(/authorization/i);
      expect(await context.cookies()).toEqual([]);

      // The policy is in force in the browser: no inline script or style, no other origin.
      const attempt = await page.evaluate<Attempt>(INJECTION_ATTEMPTS);
      expect(attempt).toMatchObject({ injected: false, display: 'block', fetched: 'TypeError' });
      expect(attempt.violations).toEqual(expect.arrayContaining(['connect-src', 'style-src-elem']));
      // The inline script is stopped by Trusted Types before script-src is even asked.
      expect(attempt.violations.some((v) => v === 'require-trusted-types-for' || v === 'script-src-elem')).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);
  it("another site's page cannot use the login the browser holds: its form post and no-cors fetch are refused, nothing changes", async () => {
    const ticket = await buyGeneral(today);
    const target = `${t.baseUrl}${checkInPath(ticket.ticketId)}`;
    // Another site: localhost is not the service's 127.0.0.1.
    const site = await new Promise<Server>((resolve) => {
      const server = createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><form method="post" action="${target}"><button>Win a prize</button></form>`);
      });
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
    const context = await doorContext(browser);
    try {
      await openDoor(context);
      const before = t.logs.filter((line) => line.route === CHECK_IN_ROUTE).length;
      const page = await context.newPage();
      await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
      const fetched = await page.evaluate<string>(
        `fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', credentials: 'include' }).then(() => 'sent', (error) => error.name)`,
      );
      // Sent either way; its answer is not the page's to read (Cross-Origin-Resource-Policy).
      expect(['sent', 'TypeError']).toContain(fetched);
      const [posted] = await Promise.all([page.waitForResponse(target), page.click('button')]);
      expect(posted.status()).toBe(403);
      expect(await posted.json()).toMatchObject({
        status: 403,
        detail: "A page of another site may not change anything here with this browser's login.",
      });
      // Refused before routing: neither reached check-in.
      expect(t.logs.filter((line) => line.route === CHECK_IN_ROUTE).length).toBe(before);
      const refused = t.logs.filter(
        (line) => line.method === 'POST' && line.status === 403 && line.route === '(unmatched)',
      );
      expect(refused.length).toBeGreaterThanOrEqual(2);
      expect(await ticketStatus(ticket.ticketId)).toBe('active');
    } finally {
      await context.close();
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  }, 120_000);
});
