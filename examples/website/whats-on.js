// The museum's "what's on", read from its public API (no credentials: the API must run with
// PUBLIC_READ=true). Plain JavaScript, no build step; every value from the API is set as text,
// never as HTML.
'use strict';

(function () {
  const EVENTS_SHOWN = 50;
  const DAYS_SHOWN = 7;

  /**
   * The API's address, from config.js only, without a trailing slash. Nothing in the page's own
   * URL may choose it: a link could then make the museum's page show another server's text.
   */
  function apiBase() {
    return String(window.MUSEUM_API_BASE || '').replace(/\/+$/, '');
  }

  /**
   * Today as YYYY-MM-DD at the museum (config.js's MUSEUM_TIME_ZONE), not in the visitor's zone:
   * a visitor abroad sees what is on at the museum today. Without a valid zone, the visitor's.
   */
  function today() {
    const now = new Date();
    try {
      // en-CA writes dates as YYYY-MM-DD.
      return new Intl.DateTimeFormat('en-CA', { timeZone: window.MUSEUM_TIME_ZONE || undefined }).format(now);
    } catch {
      const pad = (value) => String(value).padStart(2, '0');
      return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    }
  }

  /** A GET of the public API: no credentials of any kind, and a clear message on failure. */
  async function read(path) {
    const response = await fetch(apiBase() + path, { credentials: 'omit', headers: { Accept: 'application/json' } });
    if (response.status === 429) {
      const wait = response.headers.get('Retry-After');
      throw new Error(`The museum's site is busy; please try again${wait ? ` in ${wait} seconds` : ''}.`);
    }
    if (!response.ok) throw new Error(`The museum's site answered ${response.status}.`);
    return response.json();
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function formatDate(isoDate) {
    const date = new Date(`${isoDate}T12:00:00`);
    if (Number.isNaN(date.getTime())) return isoDate;
    return date.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric' });
  }

  /** `HH:MM` plus `minutes`, on a 24-hour clock. */
  function addMinutes(time, minutes) {
    const total = (Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) + minutes) % 1440;
    return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
  }

  /**
   * One date item as a visitor reads it: a date, or a session (`YYYY-MM-DDTHH:MM`, the museum's
   * own local time, shown as written whatever the visitor's time zone) with its time, and its end
   * when the event has a duration.
   */
  function formatItem(item, durationMinutes) {
    const session = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(item);
    if (!session) return formatDate(item);
    const end = Number.isInteger(durationMinutes) ? `–${addMinutes(session[2], durationMinutes)}` : '';
    return `${formatDate(session[1])}, ${session[2]}${end}`;
  }

  /** What a visitor needs to know about the seats: how many are left, if the event counts them. */
  function seatsText(event) {
    if (event.ticketsAvailable === undefined) return 'No booking limit';
    if (event.ticketsAvailable === 0) return 'Sold out';
    return event.ticketsAvailable === 1 ? '1 seat left' : `${event.ticketsAvailable} seats left`;
  }

  function showEvents(events) {
    const list = document.getElementById('events');
    const status = document.getElementById('events-status');
    list.replaceChildren();
    status.textContent = events.length === 0 ? 'No special events are planned at the moment.' : '';
    for (const event of events) {
      const item = element('li');
      item.dataset.eventId = event.eventId;
      item.append(element('span', 'name', event.name));
      item.append(
        element('span', 'dates', event.dates.map((date) => formatItem(date, event.durationMinutes)).join(' · ')),
      );
      item.append(element('div', 'location', event.location));
      item.append(element('p', 'description', event.eventDescription));
      const seats = element('span', 'seats', seatsText(event));
      if (event.ticketsAvailable === 0) seats.classList.add('sold-out');
      item.append(seats);
      list.append(item);
    }
  }

  function showHours(days) {
    const list = document.getElementById('hours');
    const status = document.getElementById('hours-status');
    list.replaceChildren();
    status.textContent = days.length === 0 ? 'The museum has no opening hours planned yet.' : '';
    for (const day of days) {
      const item = element('li');
      item.dataset.date = day.date;
      item.append(element('span', 'day', formatDate(day.date)));
      item.append(element('span', 'time', `${day.timeOpen}–${day.timeClose}`));
      list.append(item);
    }
  }

  function showError(statusId, error) {
    document.getElementById(statusId).textContent = error.message;
  }

  const from = today();
  read(`/special-events?startDate=${from}&limit=${EVENTS_SHOWN}`).then(showEvents, (error) =>
    showError('events-status', error),
  );
  read(`/museum-hours?startDate=${from}&limit=${DAYS_SHOWN}`).then(showHours, (error) =>
    showError('hours-status', error),
  );
})();
