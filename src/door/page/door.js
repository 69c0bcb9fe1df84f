/*
 * The door scanner (docs/door.md). It reads QR codes from the camera with jsQR, sends each code
 * to POST /check-ins on this origin, and shows at once what the API answered. The browser's own
 * Basic login goes with every call: this page never sees a credential. Every rule of check-in
 * (today only, once, the guessing limit) is the API's; the page only shows its answers.
 */
(() => {
  'use strict';

  /** Where scans wait for the network, so that a reload or a crash of the tab keeps them. */
  const QUEUE_KEY = 'museum-door-queue';
  /** A code seen again within this time of its last sighting is the same scan (the next frames). */
  const SAME_SCAN_MS = 1000;
  const SCAN_INTERVAL_MS = 100;
  /** Frames are scaled down to this width at most: jsQR's time grows with the pixels. */
  const SCAN_WIDTH = 640;
  const RETRY_MS = 5000;
  const SEATS_REFRESH_MS = 30000;
  const HISTORY_LENGTH = 20;

  const timeZone = document.querySelector('meta[name="museum-time-zone"]').content || 'UTC';
  const el = {
    seats: document.getElementById('seats'),
    queue: document.getElementById('queue'),
    result: document.getElementById('result'),
    video: document.getElementById('video'),
    cameraStatus: document.getElementById('camera-status'),
    cameraToggle: document.getElementById('camera-toggle'),
    form: document.getElementById('manual'),
    input: document.getElementById('code'),
    history: document.getElementById('history'),
  };

  const TITLES = {
    admitted: 'Admitted',
    'already-checked-in': 'Already checked in',
    'not-for-today': 'Not for today',
    'too-early': 'Too early',
    'entry-closed': 'Entry closed',
    cancelled: 'Cancelled',
    unknown: 'Unknown ticket',
    'not-a-ticket': 'Not a ticket',
    refused: 'Refused',
    queued: 'Saved, not sent yet',
    sending: 'Checking…',
  };

  const PROBLEM_OUTCOMES = {
    'urn:museum:problem:ticket-already-checked-in': 'already-checked-in',
    'urn:museum:problem:ticket-not-for-today': 'not-for-today',
    'urn:museum:problem:ticket-too-early': 'too-early',
    'urn:museum:problem:ticket-entry-closed': 'entry-closed',
    'urn:museum:problem:ticket-cancelled': 'cancelled',
  };

  // ---- Times and dates, in the museum's time zone ----------------------------------------------

  const timeFormat = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });

  function timeOf(instant) {
    return timeFormat.format(new Date(instant));
  }

  /** Today in the museum, YYYY-MM-DD (by this device's clock). */
  function museumToday() {
    const parts = {};
    for (const { type, value } of dateFormat.formatToParts(new Date())) parts[type] = value;
    return `${parts.year}-${parts.month}-${parts.day}`;
  }

  // ---- The queue: every scan goes through it --------------------------------------------------

  function loadQueue() {
    try {
      const saved = JSON.parse(localStorage.getItem(QUEUE_KEY) || '[]');
      return Array.isArray(saved)
        ? saved.filter((item) => item && typeof item.code === 'string' && typeof item.scannedAt === 'number')
        : [];
    } catch {
      return [];
    }
  }

  function saveQueue() {
    try {
      if (queue.length === 0) localStorage.removeItem(QUEUE_KEY);
      else localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
    } catch {
      // Storage full or refused: the queue still lives in memory.
    }
  }

  /** Scans not sent yet, oldest first; restored from an earlier visit (they were scanned then). */
  const queue = loadQueue().map((item) => ({ ...item, waited: true }));
  /** Why sending stopped: 'network' (retried), 'login' (waits for a reload), or null. */
  let blocked = null;
  let pumping = false;
  let retryTimer = 0;

  function submit(code, source) {
    const item = { code, scannedAt: Date.now(), source, waited: blocked !== null || !navigator.onLine };
    queue.push(item);
    saveQueue();
    showOutcome(item, item.waited ? 'queued' : 'sending', item.waited ? waitingText() : '');
    renderQueue();
    void pump();
  }

  /** Sends the queue in order, one at a time, until it is empty or the network is gone. */
  async function pump() {
    if (pumping) return;
    pumping = true;
    let answered = 0;
    try {
      while (queue.length > 0) {
        if (!navigator.onLine) {
          blocked = 'network';
          break;
        }
        const item = queue[0];
        const answer = await send(item.code);
        if (answer.retry) {
          blocked = answer.retry;
          if (!item.waited) {
            item.waited = true;
            showOutcome(item, 'queued', waitingText());
          }
          saveQueue();
          break;
        }
        blocked = null;
        queue.shift();
        saveQueue();
        answered++;
        showOutcome(item, answer.outcome, answer.detail);
        addHistory(item, answer.outcome);
      }
    } finally {
      pumping = false;
      renderQueue();
    }
    if (queue.length > 0 && blocked !== 'login' && retryTimer === 0) {
      retryTimer = setTimeout(() => {
        retryTimer = 0;
        void pump();
      }, RETRY_MS);
    }
    if (answered > 0) void refreshSeats();
  }

  /** One check-in: the API's answer as an outcome, or `retry` when the scan must wait. */
  async function send(code) {
    let response;
    try {
      response = await fetch('/check-ins', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ code }),
        cache: 'no-store',
        credentials: 'same-origin',
        redirect: 'error',
      });
    } catch {
      return { retry: 'network' };
    }
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    const detail = body && typeof body.detail === 'string' ? body.detail : '';
    switch (response.status) {
      case 200:
        return { outcome: 'admitted', detail: await admittedText(body) };
      case 409: {
        const outcome = PROBLEM_OUTCOMES[body && body.type] || 'refused';
        return { outcome, detail: outcome === 'already-checked-in' ? alreadyText(detail) : detail };
      }
      case 404:
        return { outcome: 'unknown', detail: 'No ticket has this code.' };
      case 400:
        return { outcome: 'not-a-ticket', detail: 'This is not the QR code of a museum ticket.' };
      case 429:
        return {
          outcome: 'refused',
          detail: `Too many unknown codes: wait ${response.headers.get('Retry-After') || 'a minute'} s, then scan again.`,
        };
      case 401:
        return { retry: 'login' };
      case 403:
        return { outcome: 'refused', detail: 'This user may not check tickets in (box office or above).' };
      case 502:
      case 503:
      case 504:
        return { retry: 'network' };
      default:
        return { outcome: 'refused', detail: detail || `The service answered ${response.status}.` };
    }
  }

  /**
   * "Special event · Gallery tour · 2026-11-28 14:00–15:00": for an event ticket, the event's
   * name and the ticket's session (its ticketTime, with its end when the event has a duration);
   * a ticket without a time shows the event's sessions that day (date items YYYY-MM-DDTHH:MM, the
   * museum's local time). Without the event (not readable) the kind, date and time. A general
   * ticket shows its slot's time when it has one.
   */
  async function admittedText(ticket) {
    if (!ticket) return '';
    const time = typeof ticket.ticketTime === 'string' ? ticket.ticketTime : '';
    if (ticket.ticketType !== 'event') return `General admission · ${ticket.ticketDate}${time ? ` ${time}` : ''}`;
    const event = await eventOf(ticket.eventId);
    if (!event) return `Special event · ${ticket.ticketDate}${time ? ` ${time}` : ''}`;
    const times = time ? withEnd(event, time) : sessionTimes(event, ticket.ticketDate);
    return `Special event · ${event.name} · ${ticket.ticketDate}${times ? ` ${times}` : ''}`;
  }

  /** Events read for admissions, by eventId: a door admits many tickets of one event. */
  const events = new Map();
  const EVENTS_KEPT = 50;

  /** The event (GET /special-events/{eventId}), or null when it cannot be read now. */
  async function eventOf(eventId) {
    if (typeof eventId !== 'string') return null;
    if (events.has(eventId)) return events.get(eventId);
    try {
      const response = await fetch(`/special-events/${encodeURIComponent(eventId)}`, {
        headers: { Accept: 'application/json' },
        cache: 'no-store',
      });
      if (!response.ok) return null;
      const event = await response.json();
      if (events.size >= EVENTS_KEPT) events.delete(events.keys().next().value);
      events.set(eventId, event);
      return event;
    } catch {
      return null;
    }
  }

  /** "14:00–15:30, 18:00–19:30": the event's sessions on `date`, with their ends when it has a duration. */
  function sessionTimes(event, date) {
    const times = (Array.isArray(event.dates) ? event.dates : [])
      .map((item) => /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(item))
      .filter((match) => match && match[1] === date)
      .map((match) => match[2])
      .filter((time, i, all) => all.indexOf(time) === i)
      .sort();
    return times.map((time) => withEnd(event, time)).join(', ');
  }

  /** "14:00–15:30" for an event with a duration, else "14:00". */
  function withEnd(event, time) {
    const minutes = Number.isInteger(event.durationMinutes) ? event.durationMinutes : 0;
    return minutes > 0 ? `${time}–${addMinutes(time, minutes)}` : time;
  }

  /** `HH:MM` plus `minutes`, on a 24-hour clock (a session past midnight ends the next day). */
  function addMinutes(time, minutes) {
    const total = (Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) + minutes) % 1440;
    return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
  }

  /** "First checked in at 14:03:12", from the API's detail (which carries the ISO instant). */
  function alreadyText(detail) {
    const instant = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/.exec(detail);
    return instant ? `First checked in at ${timeOf(Date.parse(instant[0]))}` : detail;
  }

  function waitingText() {
    return blocked === 'login'
      ? 'Log in again (reload the page): the scan is kept and sent then.'
      : 'No network: the scan is kept and sent when it is back.';
  }

  // ---- What the staff sees --------------------------------------------------------------------

  function codeTail(code) {
    return code.length > 6 ? `…${code.slice(-6)}` : code;
  }

  function showOutcome(item, outcome, detail) {
    el.result.className = `outcome outcome-${outcome}`;
    el.result.dataset.outcome = outcome;
    el.result.dataset.code = item.code;
    el.result.querySelector('.outcome-title').textContent = TITLES[outcome];
    const later = item.waited && outcome !== 'queued' ? ` · scanned at ${timeOf(item.scannedAt)}, sent later` : '';
    el.result.querySelector('.outcome-detail').textContent = `${detail} (${codeTail(item.code)})${later}`;
  }

  function addHistory(item, outcome) {
    const entry = document.createElement('li');
    entry.dataset.outcome = outcome;
    entry.dataset.code = item.code;
    if (item.waited) entry.dataset.sentLater = 'true';
    entry.textContent = `${timeOf(item.scannedAt)} ${TITLES[outcome]} ${codeTail(item.code)}${item.waited ? ' (sent later)' : ''}`;
    el.history.prepend(entry);
    while (el.history.children.length > HISTORY_LENGTH) el.history.lastElementChild.remove();
  }

  function renderQueue() {
    el.queue.dataset.count = String(queue.length);
    el.queue.hidden = queue.length === 0;
    const scans = queue.length === 1 ? '1 scan' : `${queue.length} scans`;
    el.queue.textContent = `${scans} waiting for ${blocked === 'login' ? 'a login (reload)' : 'the network'}`;
  }

  /** General admission left today (getMuseumHours), refreshed every 30 s and after scans. */
  async function refreshSeats() {
    try {
      const response = await fetch('/museum-hours?limit=1', {
        headers: { Accept: 'application/json' },
        cache: 'no-store',
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const days = await response.json();
      const day = Array.isArray(days) ? days[0] : undefined;
      let seats = '';
      let text = 'Closed today';
      if (day && day.date === museumToday()) {
        seats = typeof day.ticketsAvailable === 'number' ? String(day.ticketsAvailable) : 'unlimited';
        text = seats === 'unlimited' ? 'Open today, no seat limit' : `Seats left today: ${seats}`;
      }
      el.seats.dataset.seats = seats;
      el.seats.dataset.updatedAt = String(Date.now());
      el.seats.textContent = text;
    } catch {
      if (!el.seats.textContent.endsWith(')')) el.seats.textContent += ' (not updated: offline)';
    }
  }

  // ---- The camera -----------------------------------------------------------------------------

  let stream = null;
  let scanTimer = 0;
  let lastCode = '';
  let lastSeenAt = 0;
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });

  function cameraState(state, text) {
    el.cameraStatus.dataset.state = state;
    el.cameraStatus.textContent = text;
    el.cameraToggle.textContent = state === 'on' ? 'Stop the camera' : 'Start the camera';
  }

  async function startCamera() {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      cameraState('unavailable', 'No camera here (the page needs HTTPS): type the codes.');
      return;
    }
    cameraState('starting', 'Starting the camera…');
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
    } catch (error) {
      cameraState('unavailable', `Camera unavailable (${error.name}): type the codes.`);
      return;
    }
    el.video.srcObject = stream;
    try {
      await el.video.play();
    } catch {
      // Autoplay of a muted camera stream is allowed; frames are read from it either way.
    }
    cameraState('on', 'Camera on: hold the QR code in view.');
    scanTimer = setTimeout(scanFrame, SCAN_INTERVAL_MS);
  }

  function stopCamera() {
    clearTimeout(scanTimer);
    if (stream) for (const track of stream.getTracks()) track.stop();
    stream = null;
    el.video.srcObject = null;
    cameraState('off', 'Camera off: type the codes, or start it again.');
  }

  function scanFrame() {
    if (stream === null) return;
    const { video } = el;
    if (video.readyState >= video.HAVE_CURRENT_DATA && video.videoWidth > 0) {
      const scale = Math.min(1, SCAN_WIDTH / video.videoWidth);
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const found = window.jsQR(image.data, image.width, image.height, { inversionAttempts: 'dontInvert' });
      if (found && found.data) seen(found.data);
    }
    scanTimer = setTimeout(scanFrame, SCAN_INTERVAL_MS);
  }

  /**
   * A code held in front of the camera is in many frames: it is one scan until it has been out of
   * view for SAME_SCAN_MS, so the same code twice in a row is sent once.
   */
  function seen(code) {
    const now = Date.now();
    const again = code === lastCode && now - lastSeenAt < SAME_SCAN_MS;
    lastCode = code;
    lastSeenAt = now;
    if (!again) submit(code, 'camera');
  }

  // ---- Start ----------------------------------------------------------------------------------

  el.cameraToggle.addEventListener('click', () => {
    if (stream) stopCamera();
    else void startCamera();
  });
  el.form.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = el.input.value.trim();
    if (code !== '') submit(code, 'typed');
    el.input.value = '';
    el.input.focus();
  });
  window.addEventListener('online', () => {
    void pump();
    void refreshSeats();
  });
  window.addEventListener('offline', renderQueue);

  renderQueue();
  void pump();
  void refreshSeats();
  setInterval(() => void refreshSeats(), SEATS_REFRESH_MS);
  void startCamera();
})();
