/**
 * The museum-hours module: GET /museum-hours (getMuseumHours' largest page, 30 open days from
 * today), on the service alone, compared with the same service's get in the same run (issue 28).
 */
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { httpExpect } from '../servers/http.js';
import { get } from './special-events.js';
import { oncePerServer, workload, type BenchModule } from './workload.js';

/**
 * The week the workload reads: open every day (so a page has 30 days), the weekend with a
 * capacity, so that the page's sales are read too (ticketsAvailable).
 */
const MUSEUM_WEEK = JSON.stringify({
  monday: { timeOpen: '09:00', timeClose: '18:00' },
  tuesday: { timeOpen: '09:00', timeClose: '18:00' },
  wednesday: { timeOpen: '09:00', timeClose: '18:00' },
  thursday: { timeOpen: '09:00', timeClose: '21:00' },
  friday: { timeOpen: '09:00', timeClose: '18:00' },
  saturday: { timeOpen: '10:00', timeClose: '18:00', capacity: 500 },
  sunday: { timeOpen: '10:00', timeClose: '18:00', capacity: 500 },
});

/** MUSEUM_WEEK set on the server, once. */
const setWeek = oncePerServer(async ({ server, label }) => {
  await httpExpect(
    {
      port: server.port,
      method: 'PUT',
      path: '/museum-hours/weekly',
      headers: { authorization: VALID_AUTHORIZATION, 'content-type': 'application/json' },
      body: MUSEUM_WEEK,
    },
    200,
    label,
  );
});

export const MUSEUM_HOURS = {
  workloads: [
    workload({
      name: 'museum-hours',
      method: 'GET',
      path: '/museum-hours?limit=30',
      status: 200,
      servers: ['service'],
      prepare: async (subject) => {
        await setWeek(subject);
        return {};
      },
      relativeTarget: { of: get, least: 0.8, title: 'museum-hours (limit 30)' },
    }),
  ],
} satisfies BenchModule;
