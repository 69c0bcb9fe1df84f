import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

export interface ReceivedDelivery {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The status this receiver answered with. */
  readonly status: number;
  readonly at: number;
  /** The whole answer was handed to the connection (false while writing, or when the sender was gone). */
  answered: boolean;
}

/** What the receiver does with the next request: answer `status`, after `delayMs`. */
export type Behaviour = (path: string) => {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
  /** Send this many bytes of body and never end the answer. */
  endlessAfterBytes?: number;
};

/**
 * A webhook receiver on 127.0.0.1 (the host the tests list in WEBHOOK_ALLOWED_HOSTS) that records
 * every request and answers as `behaviour` says: 202 by default, as the Museum API's
 * publishNewEvent does.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  behaviour: Behaviour = () => ({ status: 202 });
  /** Requests being answered right now, by path and webhook-id: a second one at once is a double send. */
  readonly inProgress = new Map<string, number>();
  maxConcurrentPerId = 0;
  private server?: Server;
  private readonly waiters = new Set<() => void>();
  /** Connections open now; told when the last one closes (connectionsClosed()). */
  private openConnections = 0;
  private readonly closedWaiters = new Set<() => void>();

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const id = `${req.url ?? '/'} ${String(req.headers['webhook-id'])}`;
        const running = (this.inProgress.get(id) ?? 0) + 1;
        this.inProgress.set(id, running);
        this.maxConcurrentPerId = Math.max(this.maxConcurrentPerId, running);
        const { status, delayMs = 0, headers = {}, endlessAfterBytes } = this.behaviour(req.url ?? '/');
        const answer = (response: ServerResponse) => {
          this.inProgress.set(id, (this.inProgress.get(id) ?? 1) - 1);
          const delivery = {
            path: req.url ?? '/',
            headers: req.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            status,
            at: Date.now(),
            answered: false,
          };
          this.received.push(delivery);
          // Only an answer that left this process acknowledges: one to a sender that died meanwhile does not.
          response.on('finish', () => {
            delivery.answered = true;
            for (const waiter of this.waiters) waiter();
          });
          if (endlessAfterBytes === undefined) response.writeHead(status, headers).end();
          else response.writeHead(status, headers).write(Buffer.alloc(endlessAfterBytes, 'x'));
          for (const waiter of this.waiters) waiter();
        };
        if (delayMs > 0) setTimeout(() => answer(res), delayMs);
        else answer(res);
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.openConnections++;
      socket.on('close', () => {
        this.openConnections--;
        if (this.openConnections > 0) return;
        for (const waiter of this.closedWaiters) waiter();
        this.closedWaiters.clear();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * Resolves once no sender holds a connection open: every request sent on one was read and
   * answered, or its sender is gone (a killed process's connections close with it).
   */
  connectionsClosed(): Promise<void> {
    if (this.openConnections === 0) return Promise.resolve();
    return new Promise((resolve) => this.closedWaiters.add(resolve));
  }

  /** The deliveries answered with a 2xx, in the order they were answered, that reached their sender's connection. */
  acknowledged(): ReceivedDelivery[] {
    return this.received.filter(({ status, answered }) => answered && status >= 200 && status < 300);
  }

  /** Resolves once `predicate` holds for what was received (checked after every request), or fails after `timeoutMs`. */
  async waitFor(predicate: () => boolean, timeoutMs = 20_000, what = 'the deliveries'): Promise<void> {
    if (predicate()) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; received ${this.received.length}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * A receiver that accepts every connection, reads what is sent and never answers: the sender's
 * own timeout is what ends each delivery. Counts the connections, and the ones the sender gave up
 * on (closed while this receiver was still listening).
 */
export class HungReceiver {
  connections = 0;
  closedBySender = 0;
  private server?: NetServer;
  private stopping = false;
  private readonly sockets = new Set<Socket>();
  private readonly closeWaiters = new Set<() => void>();

  async start(): Promise<string> {
    this.server = createNetServer((socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.resume();
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        if (this.stopping) return;
        this.closedBySender++;
        for (const waiter of this.closeWaiters) waiter();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves when the sender first gives up on a connection (its delivery timeout fired). */
  firstGiveUp(): Promise<void> {
    return new Promise((resolve) => {
      if (this.closedBySender > 0) resolve();
      else this.closeWaiters.add(resolve);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
