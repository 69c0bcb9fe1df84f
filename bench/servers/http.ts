/** One request at a time to a server under test, outside the load runs (set-up, checks, metrics). */
import { type IncomingHttpHeaders, request } from 'node:http';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface HttpCall {
  readonly port: number;
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs?: number;
}

/** One request on its own connection (no agent) to 127.0.0.1. */
export function httpCall(call: HttpCall): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: call.port,
        method: call.method,
        path: call.path,
        agent: false,
        headers: {
          ...call.headers,
          ...(call.body === undefined ? {} : { 'content-length': Buffer.byteLength(call.body) }),
        },
        timeout: call.timeoutMs ?? 5000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`${call.method} ${call.path}: no answer within ${call.timeoutMs ?? 5000} ms`)),
    );
    req.on('error', reject);
    req.end(call.body);
  });
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** httpCall, throwing unless the answer has the `expected` status (`who`: the server, for the message). */
export async function httpExpect(call: HttpCall, expected: number, who = ''): Promise<HttpAnswer> {
  const answer = await httpCall(call);
  if (answer.status !== expected)
    throw new Error(`${who ? `${who}: ` : ''}${call.method} ${call.path} answered ${answer.status}: ${answer.body}`);
  return answer;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
