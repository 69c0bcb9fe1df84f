import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMuseumClient, type MuseumClient } from '../../client/index.js';
import { startMuseumTestService, type MuseumTestService } from './museum-test-service.js';

/**
 * An example suite a frontend team would copy (docs/testing.md, "Test mode for suites outside the
 * project"): the service in test mode on a free port, a reset before each test, the museum's clock
 * frozen on a fixed Saturday, and the typed client (client/) for everything else. It passes on
 * every day of the year, whatever the machine's clock says.
 *
 * Your suite sets MUSEUM_TEST_SERVICE to the service's built `dist/test-service.js`. Here, in the
 * service's own repository, the test run's shared build stands in for it.
 */
const entry =
  process.env.MUSEUM_TEST_SERVICE ??
  join(dirname((await import('../../test/helpers/built-service.js')).buildService()), 'test-service.js');

/** Saturday 13 March 2027, 10:00 at the museum (UTC unless MUSEUM_TIME_ZONE says otherwise). */
const SATURDAY = '2027-03-13';
const OPEN_SATURDAYS = {
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: { timeOpen: '09:00', timeClose: '18:00', capacity: 50 },
  sunday: { timeOpen: '09:00', timeClose: '18:00', capacity: 50 },
};

describe('a visitor buys a ticket for Saturday and uses it at the door', () => {
  let service: MuseumTestService;
  let museum: MuseumClient;

  beforeAll(async () => {
    service = await startMuseumTestService(entry, { MUSEUM_TIME_ZONE: 'UTC' });
    museum = createMuseumClient(service.baseUrl, service.credentials);
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
  });

  beforeEach(async () => {
    await service.reset();
    const clock = await service.setClock(`${SATURDAY}T10:00:00Z`);
    if (clock.museumDate !== SATURDAY) throw new Error(`the museum's date is ${clock.museumDate}, not ${SATURDAY}`);
    const week = await museum.PUT('/museum-hours/weekly', { body: OPEN_SATURDAYS });
    if (week.response.status !== 200) throw new Error(`PUT /museum-hours/weekly: ${week.response.status}`);
  });

  it('buys a general ticket for that Saturday and checks it in on the day', async () => {
    const hours = await museum.GET('/museum-hours', { params: { query: { limit: 1 } } });
    expect(hours.data?.[0]).toMatchObject({ date: SATURDAY, ticketsAvailable: 50 });

    const bought = await museum.POST('/tickets', { body: { ticketType: 'general', ticketDate: SATURDAY } });
    expect(bought.response.status).toBe(201);
    const ticketId = bought.data?.ticketId as string;

    const checkedIn = await museum.POST('/tickets/{ticketId}/check-in', { params: { path: { ticketId } } });
    expect(checkedIn.response.status).toBe(200);
    expect(checkedIn.data).toMatchObject({ ticketId, status: 'checked-in', checkedInAt: `${SATURDAY}T10:00:00.000Z` });
  });

  it('a day later, the same ticket is refused at the door: not for today', async () => {
    const bought = await museum.POST('/tickets', { body: { ticketType: 'general', ticketDate: SATURDAY } });
    expect(bought.response.status).toBe(201);
    const ticketId = bought.data?.ticketId as string;

    expect((await service.advance(86_400)).museumDate).toBe('2027-03-14');
    const refused = await museum.POST('/tickets/{ticketId}/check-in', { params: { path: { ticketId } } });
    expect(refused.response.status).toBe(409);
    expect(refused.error?.type).toBe('urn:museum:problem:ticket-not-for-today');
  });

  it('starts each test from nothing: the reset left no ticket of the tests before', async () => {
    const hours = await museum.GET('/museum-hours', { params: { query: { limit: 1 } } });
    expect(hours.data?.[0]).toMatchObject({ date: SATURDAY, ticketsAvailable: 50 });
  });
});
