/**
 * The webhooks module: creates with three webhook subscribers (a receiver in this process
 * answering 202 at once) against creates with none, whenever `create` runs. Before a run without
 * subscribers, the deliveries of the previous run are awaited (at most a minute), so that they do
 * not run into it; after a run with subscribers, the deliveries still pending are noted: creates
 * that outrun their deliveries would look cheap.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { httpCall, httpExpect, sleep } from '../servers/http.js';
import { create } from './special-events.js';
import type { BenchModule } from './workload.js';

const SUBSCRIBERS = 3;

export const WEBHOOKS = {
  workloads: [],
  alternations: [
    {
      when: create,
      plain: 'create, no webhook subscriber',
      variant: `create, ${SUBSCRIBERS} webhook subscribers`,
      // Judged on SQLite alone; MySQL's ratio is shown beside it.
      target: { least: 0.9, on: 'sqlite' },
      open: async ({ server }) => {
        const receiver = createServer((req, res) => {
          req.resume();
          req.on('end', () => res.writeHead(202).end());
        });
        await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
        const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
        const headers = { authorization: VALID_AUTHORIZATION };
        const subscriptions = async () =>
          JSON.parse((await httpCall({ port: server.port, method: 'GET', path: '/webhooks', headers })).body) as {
            webhookId: string;
            pendingDeliveries: number;
          }[];
        const noSubscriber = async () => {
          const deadline = Date.now() + 60_000;
          while ((await subscriptions()).some((s) => s.pendingDeliveries > 0) && Date.now() < deadline)
            await sleep(200);
          for (const { webhookId } of await subscriptions()) {
            await httpCall({ port: server.port, method: 'DELETE', path: `/webhooks/${webhookId}`, headers });
          }
          return {};
        };
        const subscribe = async () => {
          for (let i = 0; i < SUBSCRIBERS; i++) {
            const body = JSON.stringify({ url: `${receiverUrl}/subscriber-${i}` });
            const json = { ...headers, 'content-type': 'application/json' };
            await httpExpect({ port: server.port, method: 'POST', path: '/webhooks', headers: json, body }, 201);
          }
          const pending = async () => (await subscriptions()).reduce((sum, s) => sum + s.pendingDeliveries, 0);
          return { after: async () => ({ note: `${await pending()} deliveries pending at the end of the run` }) };
        };
        return {
          plain: { workload: create, prepare: noSubscriber },
          variant: { workload: create, prepare: subscribe },
          close: async () => {
            receiver.closeAllConnections();
            await new Promise((resolve) => receiver.close(resolve));
          },
        };
      },
    },
  ],
} satisfies BenchModule;
