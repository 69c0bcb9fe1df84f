import { expect, expectTypeOf } from 'vitest';
import type { components } from '../../.test-build/museum-api/schema.js';
import { type MuseumClientKit, type MuseumClientRows, museumSchemaProblems } from '../helpers/museum-client.js';
import { setWeeklyHours } from './api.js';

/** getMuseumHours with the client generated from the Museum API (test/helpers/museum-client.ts). */
function tests(kit: MuseumClientKit): ReturnType<MuseumClientRows['tests']> {
  return [
    {
      title: 'reads the museum hours (getMuseumHours): MuseumHours, closed days left out, paged by page and limit',
      run: async () => {
        // The week is set through this service's own write side, which the Museum API does not have.
        const week = await setWeeklyHours(kit.t.baseUrl, {
          monday: { timeOpen: '09:00', timeClose: '18:00' },
          tuesday: { timeOpen: '09:00', timeClose: '18:00' },
          wednesday: { timeOpen: '09:00', timeClose: '18:00' },
          thursday: { timeOpen: '09:00', timeClose: '18:00' },
          friday: { timeOpen: '09:00', timeClose: '18:00', capacity: 200 },
          saturday: null,
          sunday: null,
        });
        expect(week.status).toBe(200);
        // 2023-09-11 is a Monday, as in the Museum API's example.
        const { data, error, response } = await kit.museum.GET('/museum-hours', {
          params: { query: { startDate: '2023-09-11', limit: 6 } },
        });
        expectTypeOf(data).toEqualTypeOf<components['schemas']['MuseumHours'] | undefined>();
        expect({ status: response.status, error }).toStrictEqual({ status: 200, error: undefined });
        expect(museumSchemaProblems('MuseumHours', data)).toStrictEqual([]);
        expect(data?.map((day) => day.date)).toStrictEqual([
          '2023-09-11',
          '2023-09-12',
          '2023-09-13',
          '2023-09-14',
          '2023-09-15',
          '2023-09-18',
        ]);
        expect(data?.[0]).toStrictEqual({ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' });
        const second = await kit.museum.GET('/museum-hours', {
          params: { query: { startDate: '2023-09-11', page: 2, limit: 3 } },
        });
        expect(second.data?.map((day) => day.date)).toStrictEqual(['2023-09-14', '2023-09-15', '2023-09-18']);
        const bad = await kit.museum.GET('/museum-hours', {
          params: { query: { startDate: '2023-09-11', limit: 31 } },
        });
        expect(bad.response.status).toBe(400);
        expect(museumSchemaProblems('Error', bad.error)).toStrictEqual([]);
      },
    },
  ];
}

const intruderStatuses: MuseumClientRows['intruderStatuses'] = async (_kit, intruder) => [
  ['getMuseumHours', (await intruder.GET('/museum-hours')).response.status],
];

export default { tests, intruderStatuses } satisfies MuseumClientRows;
