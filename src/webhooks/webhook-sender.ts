import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { type AddressPolicy, forbiddenAddress, RefusedAddressError } from './address-policy.js';

/** How long a delivery may take, connection to last byte read. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The most of a receiver's answer that is read: the status is all that counts. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export type DeliveryResult =
  | { readonly outcome: 'delivered'; readonly status: number }
  | { readonly outcome: 'failed' | 'refused'; readonly reason: string };

/**
 * POSTs webhook deliveries under the address policy: the address connected to is checked after DNS
 * (the lookup) and again on connect, redirects are not followed (a 3xx is a failure), the whole
 * exchange is bounded by DELIVERY_TIMEOUT_MS and at most MAX_RESPONSE_BYTES of the answer is read.
 * Connections are kept alive between deliveries to the same receiver.
 */
export class WebhookSender {
  // No socket limit here: the dispatcher bounds deliveries per subscriber, and subscribers that share
  // a host must not wait for each other's sockets.
  private readonly httpAgent = new HttpAgent({ keepAlive: true });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true });

  constructor(private readonly policy: AddressPolicy) {}

  send(url: string, headers: Record<string, string>, body: string): Promise<DeliveryResult> {
    const target = new URL(url);
    const literalRefusal = this.policy.literalRefusal(target);
    if (literalRefusal !== null) return Promise.resolve({ outcome: 'refused', reason: literalRefusal });
    const allowedHost = this.policy.isAllowedHost(target);
    const payload = Buffer.from(body, 'utf8');
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (result: DeliveryResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = request(target, {
        method: 'POST',
        agent: target.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
        lookup: this.policy.lookupFor(target),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'museum-special-events-webhooks/1',
        },
      });
      const timer = setTimeout(() => {
        req.destroy();
        settle({ outcome: 'failed', reason: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` });
      }, DELIVERY_TIMEOUT_MS);
      req.on('socket', (socket: Socket) => {
        // A second check on the address actually connected to, whatever resolved it.
        if (allowedHost) return;
        const check = (): void => {
          const reason = socket.remoteAddress === undefined ? null : forbiddenAddress(socket.remoteAddress);
          if (reason !== null) req.destroy(new RefusedAddressError(reason));
        };
        if (socket.connecting) socket.once('connect', check);
        else check();
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error instanceof RefusedAddressError) settle({ outcome: 'refused', reason: error.message });
        else settle({ outcome: 'failed', reason: describeError(error) });
      });
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        const done = (): void => {
          if (status >= 200 && status < 300) settle({ outcome: 'delivered', status });
          else if (status >= 300 && status < 400) {
            settle({ outcome: 'failed', reason: `HTTP ${status}: redirects are not followed` });
          } else settle({ outcome: 'failed', reason: `HTTP ${status}` });
        };
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      });
      req.end(payload);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** A failure as the subscription's health shows it: the error's code and message, nothing more. */
function describeError(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
