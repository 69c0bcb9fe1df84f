import { describe, expect, expectTypeOf, it } from 'vitest';
import type { MuseumDailyHours, Problem, StoredHoursException, WeeklyHours } from '../../client/index.js';
import { useTypedClient } from '../helpers/typed-client.js';

/** The typed client (client/index.ts) on museum hours. */

const { client } = useTypedClient();

describe('createMuseumClient: museum hours', () => {
  it('sets the week and a date, reads the hours typed; a bad time is a typed 400, a missing exception a 404', async () => {
    const { museum } = client;
    const week: WeeklyHours = {
      monday: { timeOpen: '09:00', timeClose: '18:00', capacity: 50 },
      tuesday: { timeOpen: '09:00', timeClose: '18:00' },
      wednesday: null,
      thursday: null,
      friday: null,
      saturday: null,
      sunday: null,
    };
    const set = await museum.PUT('/museum-hours/weekly', { body: week });
    expectTypeOf(set.data).toEqualTypeOf<WeeklyHours | undefined>();
    expect({ status: set.response.status, data: set.data }).toStrictEqual({ status: 200, data: week });

    // 2088-03-01 is a Monday; its exception closes it.
    const closed = await museum.PUT('/museum-hours/{date}', {
      params: { path: { date: '2088-03-01' } },
      body: { closed: true },
    });
    expectTypeOf(closed.data).toEqualTypeOf<StoredHoursException | undefined>();
    expect(closed.data).toStrictEqual({ date: '2088-03-01', closed: true });

    const hours = await museum.GET('/museum-hours', { params: { query: { startDate: '2088-03-01', limit: 2 } } });
    expectTypeOf(hours.data).toEqualTypeOf<MuseumDailyHours[] | undefined>();
    expect(hours.data).toStrictEqual([
      { date: '2088-03-02', timeOpen: '09:00', timeClose: '18:00' },
      { date: '2088-03-08', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 50 },
    ]);

    const bad = await museum.PUT('/museum-hours/{date}', {
      params: { path: { date: '2088-03-02' } },
      body: { timeOpen: '18:00', timeClose: '09:00' },
    });
    expectTypeOf(bad.error).toEqualTypeOf<Problem | undefined>();
    expect(bad.error?.errors).toStrictEqual([
      { field: 'timeClose', message: 'timeClose must be after timeOpen (a day may not run past midnight)' },
    ]);

    const removed = await museum.DELETE('/museum-hours/{date}', { params: { path: { date: '2088-03-01' } } });
    expect(removed.response.status).toBe(204);
    const again = await museum.DELETE('/museum-hours/{date}', { params: { path: { date: '2088-03-01' } } });
    expect({ status: again.response.status, title: again.error?.title }).toStrictEqual({
      status: 404,
      title: 'Not Found',
    });
    const read = await museum.GET('/museum-hours/weekly');
    expect(read.data).toStrictEqual(week);
  });
});
