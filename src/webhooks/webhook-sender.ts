import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect as netConnect, isIP, type NetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
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
 * (the lookup) and again on connect, before a byte is sent (CheckedHttpAgent), redirects are not followed (a 3xx is a failure), the whole
 * exchange is bounded by DELIVERY_TIMEOUT_MS and at most MAX_RESPONSE_BYTES of the answer is read.
 * Connections are kept alive between deliveries to the same receiver.
 */
export class WebhookSender {
  // No socket limit here: the dispatcher bounds deliveries per subscriber, and subscribers that share
  // a host must not wait for each other's sockets.
  private readonly httpAgent = new CheckedHttpAgent({ keepAlive: true });
  private readonly httpsAgent = new CheckedHttpsAgent({ keepAlive: true });

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
      const options: RequestOptions & Pick<ConnectOptions, 'checkAddress'> = {
        method: 'POST',
        agent: target.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
        lookup: this.policy.lookupFor(target),
        checkAddress: !allowedHost,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'museum-special-events-webhooks/1',
        },
      };
      const req = request(target, options);
      const timer = setTimeout(() => {
        req.destroy();
        settle({ outcome: 'failed', reason: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` });
      }, DELIVERY_TIMEOUT_MS);
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

/** A connection's options as the agent passes them on, with the sender's own `checkAddress`. */
type ConnectOptions = NetConnectOpts & ConnectionOptions & { checkAddress?: boolean; host?: string };
type Created = (error: Error | null, socket?: Duplex) => void;

/**
 * Opens the TCP connection and, when `checkAddress`, checks the address actually connected to
 * (whatever the lookup let through) before handing the socket on: the HTTP request, or the TLS
 * handshake that `secure` starts, is written only once the check passed, so a refused address
 * receives not one byte.
 */
function checkedConnection(options: ConnectOptions, created: Created, secure: boolean): undefined {
  const socket = netConnect(options);
  const failed = (error: Error): void => created(error);
  socket.once('error', failed);
  socket.once('connect', () => {
    socket.off('error', failed);
    const reason =
      options.checkAddress && socket.remoteAddress !== undefined ? forbiddenAddress(socket.remoteAddress) : null;
    if (reason !== null) {
      socket.destroy();
      created(new RefusedAddressError(reason));
      return;
    }
    if (!secure) {
      created(null, socket);
      return;
    }
    const host = options.host ?? '';
    created(
      null,
      tlsConnect({ ...options, socket, servername: options.servername ?? (isIP(host) ? undefined : host) }),
    );
  });
  // The agent waits for `created` (its asynchronous form) when nothing is returned.
  return undefined;
}

/** An HTTP agent whose connections pass checkedConnection. */
class CheckedHttpAgent extends HttpAgent {
  override createConnection(options: ConnectOptions, created: Created): undefined {
    return checkedConnection(options, created, false);
  }
}

/** An HTTPS agent whose connections pass checkedConnection before their TLS handshake. */
class CheckedHttpsAgent extends HttpsAgent {
  override createConnection(options: ConnectOptions, created: Created): undefined {
    return checkedConnection(options, created, true);
  }
}

/** A failure as the subscription's health shows it: the error's code and message, nothing more. */
function describeError(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
