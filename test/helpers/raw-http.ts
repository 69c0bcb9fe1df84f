import { connect, type Socket } from 'node:net';
import { expect, vi } from 'vitest';

/**
 * A request written byte for byte on a plain socket (for what an HTTP client would refuse to
 * send); resolves with the whole raw response once the server closes the connection (send
 * `Connection: close`, or a request Node's parser refuses, which is answered and closed at once).
 */
export function rawExchange(baseUrl: string, request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    // write, not end: a half-closed request is aborted by Node before its answer is written.
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

export interface RawResponse {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: string;
}

/** Splits a raw HTTP/1.1 response into status, reason phrase, lower-cased headers and body. */
export function parseRaw(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  expect(end).toBeGreaterThan(0);
  const [statusLine, ...headerLines] = raw.slice(0, end).split('\r\n');
  const match = /^HTTP\/1\.1 (\d{3}) (.*)$/.exec(statusLine);
  expect(statusLine).toMatch(/^HTTP\/1\.1 (\d{3}) (.*)$/);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(match?.[1]), reason: match?.[2] ?? '', headers, body: raw.slice(end + 4) };
}

/**
 * Sends each request on a connection of its own, all written in one synchronous loop once the
 * server has accepted every connection, so that they reach the server in one turn of its event
 * loop (what a batch of the database layer is made of). Resolves with the raw responses, in order;
 * each request must carry `Connection: close`.
 */
export async function rawExchangeTogether(
  baseUrl: string,
  server: { getConnections(callback: (error: Error | null, count: number) => void): void },
  requests: readonly (string | Buffer)[],
): Promise<string[]> {
  const { hostname, port } = new URL(baseUrl);
  const before = await connectionCount(server);
  const sockets = await Promise.all(
    requests.map(
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(Number(port), hostname, () => resolve(socket));
          socket.on('error', reject);
        }),
    ),
  );
  while ((await connectionCount(server)) < before + requests.length) await new Promise((r) => setTimeout(r, 1));
  const answers = sockets.map(
    (socket) =>
      new Promise<string>((resolve, reject) => {
        socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      }),
  );
  requests.forEach((request, i) => sockets[i].write(request));
  return Promise.all(answers);
}

function connectionCount(server: {
  getConnections(callback: (error: Error | null, count: number) => void): void;
}): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

export interface TogetherRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string;
  /** Sent as JSON when given. */
  readonly body?: unknown;
}

/** A RawResponse with its body parsed when it is JSON. */
export interface TogetherResponse extends RawResponse {
  readonly json: unknown;
}

/** `rawExchangeTogether` for JSON requests, the answers parsed. */
export async function sendTogether(
  app: { readonly baseUrl: string; readonly app: { getHttpServer(): Parameters<typeof rawExchangeTogether>[1] } },
  requests: readonly TogetherRequest[],
): Promise<TogetherResponse[]> {
  const raw = await rawExchangeTogether(
    app.baseUrl,
    app.app.getHttpServer(),
    requests.map(({ method, path, authorization, body }) => {
      const text = body === undefined ? '' : JSON.stringify(body);
      return (
        `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nConnection: close\r\n` +
        (body === undefined ? '' : 'Content-Type: application/json\r\n') +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`
      );
    }),
  );
  return raw.map((answer) => {
    const response = parseRaw(answer);
    const isJson = /json/.test(response.headers['content-type'] ?? '');
    return { ...response, json: isJson ? (JSON.parse(response.body) as unknown) : undefined };
  });
}

/**
 * Counts the calls of `methods` of `target` (a prototype) in progress at once, and the most at
 * any moment: when that reaches the number of requests sent, they all overlapped in there.
 */
export function countOverlap<T extends object>(target: T, methods: readonly (keyof T & string)[]): () => number {
  let current = 0;
  let most = 0;
  for (const method of methods) {
    const original = target[method] as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(target as Record<string, (...args: unknown[]) => Promise<unknown>>, method).mockImplementation(
      async function (this: unknown, ...args: unknown[]) {
        most = Math.max(most, ++current);
        try {
          return await original.apply(this, args);
        } finally {
          current--;
        }
      },
    );
  }
  return () => most;
}
