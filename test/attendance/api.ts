/**
 * The attendance routes' paths, as the attendance tests and shared tables call them: the routes
 * belong to special events and museum hours, the counts to tickets.
 */

/** An event's attendance per date. */
export const eventAttendancePath = (eventId: string): string => `/special-events/${eventId}/attendance`;

/** A day's general-admission attendance. */
export const dayAttendancePath = (date: string): string => `/museum-hours/${date}/attendance`;
