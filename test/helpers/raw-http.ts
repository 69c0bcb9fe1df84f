import { connect } from 'node:net';
import { expect } from 'vitest';

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
