/**
 * The benchmark's baseline: bare Express 5 doing what every request of the service must do at
 * least (parse the JSON body, generate a UUIDv7, answer), with no authentication, validation,
 * storage or logging. The service's req/s divided by this one's is the "ratio" of the report.
 * Reads answer a fixed JSON body of the size the service's answer has (one stored event; a first
 * list page of LIST_LIMIT of them), serialised once at start; an update answers the stored event
 * with the body merged in, as create answers the body with an id.
 *
 * Listens on 127.0.0.1, on the port given in PORT (default 0: any free port), and writes
 * `Listening on http://127.0.0.1:<port>` to standard output once it does.
 */
import express, { type Request, type Response } from 'express';
import { v7 as uuidv7 } from 'uuid';
import { fieldsOf, LIST_LIMIT, STORED_EVENT } from './bodies.js';
import { announce } from './reference-app.js';

const EVENT_JSON = JSON.stringify(STORED_EVENT);
const PAGE_JSON = JSON.stringify(Array.from({ length: LIST_LIMIT }, () => STORED_EVENT));

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json({ limit: '256kb' }));

app.post('/special-events', (request: Request, response: Response) => {
  const eventId = uuidv7();
  response
    .status(201)
    .location(`/special-events/${eventId}`)
    .json({ ...fieldsOf(request.body), eventId });
});

app.get('/special-events', (_request: Request, response: Response) => {
  response.type('application/json').send(PAGE_JSON);
});

app.get('/special-events/:eventId', (_request: Request, response: Response) => {
  response.type('application/json').send(EVENT_JSON);
});

app.patch('/special-events/:eventId', (request: Request, response: Response) => {
  response.json({ ...STORED_EVENT, ...fieldsOf(request.body) });
});

app.delete('/special-events/:eventId', (_request: Request, response: Response) => {
  response.status(204).end();
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () =>
  announce(server, () => new Promise((resolve) => server.close(() => resolve()))),
);
