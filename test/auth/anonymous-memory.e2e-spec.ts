import { Agent, request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { basicHeader, useTestApp } from '../helpers/test-app.js';
import { reachableHeapBytes } from '../helpers/retained-heap.js';

const REQUESTS = 3_000;
const NAME_LENGTH = 12_000;

/**
 * What anonymous input can make the service keep: wrong credentials with a long user name, each
 * from another address (TRUST_PROXY=1: this test is the proxy on 127.0.0.1 that names the client),
 * are counted by the failure limiter and refused from the credential cache, and neither may keep
 * a copy of the name per address. The app runs in this process, so its heap is measured here.
 */
describe('wrong credentials with a long user name from many addresses', () => {
  const t = useTestApp({ TRUST_PROXY: '1', AUTH_FAILURE_LIMIT: '5', AUTH_FAILURE_ADDRESS_LIMIT: '5' });
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  afterAll(() => agent.destroy());

  function send(path: string, headers: Record<string, string>): Promise<number> {
    const { hostname, port } = new URL(t.baseUrl);
    return new Promise((resolve, reject) => {
      const sent = httpRequest({ host: hostname, port, path, headers, agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      sent.on('error', reject);
      sent.end();
    });
  }

  it(`keep no copy of the name per address: ${REQUESTS} of them grow the heap by far less than the names`, async () => {
    const authorization = basicHeader('u'.repeat(NAME_LENGTH), 'wrong-password');
    // The first refusal is hashed and cached; the rest are answered from the cache.
    expect(await send('/special-events', { Authorization: authorization, 'X-Forwarded-For': '198.18.255.255' })).toBe(
      401,
    );
    const before = reachableHeapBytes();
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < REQUESTS) {
          const i = next++;
          const client = `198.18.${i >> 8}.${i & 255}`;
          statuses.push(await send('/special-events', { Authorization: authorization, 'X-Forwarded-For': client }));
        }
      }),
    );
    const grown = reachableHeapBytes() - before;
    expect(statuses.filter((status) => status === 401)).toHaveLength(REQUESTS);
    // One copy of the name per address would be 36 MB; the entries themselves are a few hundred
    // bytes per address. The margin takes the app's own caches and the runner's noise.
    expect(grown).toBeLessThan(12 * 2 ** 20);
  }, 60_000);
});
