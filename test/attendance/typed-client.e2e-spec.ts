import { describe, expect, expectTypeOf, it } from 'vitest';
import type { DateAttendance, DayAttendance, Problem } from '../../client/index.js';
import { useTypedClient } from '../helpers/typed-client.js';

/** The typed client (client/index.ts) on attendance. */

const { client } = useTypedClient();

describe('createMuseumClient: attendance', () => {
  it("reads an event's and a day's attendance typed; an unknown event is a typed 404", async () => {
    const { museum } = client;
    const created = await museum.POST('/special-events', {
      body: {
        name: 'Counted',
        location: 'Hall 2',
        eventDescription: 'Nobody has bought a ticket yet.',
        dates: ['2088-04-01', 'some day'],
        price: 5,
      },
    });
    const eventId = created.data?.eventId as string;

    const event = await museum.GET('/special-events/{eventId}/attendance', { params: { path: { eventId } } });
    expectTypeOf(event.data).toEqualTypeOf<DateAttendance[] | undefined>();
    expect(event.data).toStrictEqual([{ date: '2088-04-01', sold: 0, checkedIn: 0, cancelled: 0 }]);

    await museum.PUT('/museum-hours/{date}', {
      params: { path: { date: '2088-04-02' } },
      body: { timeOpen: '10:00', timeClose: '11:00', slotMinutes: 30, slotCapacity: 5 },
    });
    const day = await museum.GET('/museum-hours/{date}/attendance', { params: { path: { date: '2088-04-02' } } });
    expectTypeOf(day.data).toEqualTypeOf<DayAttendance[] | undefined>();
    expect(day.data).toStrictEqual([
      {
        date: '2088-04-02',
        sold: 0,
        checkedIn: 0,
        cancelled: 0,
        slots: [
          { time: '10:00', sold: 0, checkedIn: 0, cancelled: 0 },
          { time: '10:30', sold: 0, checkedIn: 0, cancelled: 0 },
        ],
      },
    ]);

    const unknown = await museum.GET('/special-events/{eventId}/attendance', {
      params: { path: { eventId: '0190a6f4-9c2b-7d5e-8f3a-1b2c3d4e5f60' } },
    });
    expectTypeOf(unknown.error).toEqualTypeOf<Problem | undefined>();
    expect(unknown.response.status).toBe(404);
  });
});
