import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 that a test controls: `cut()` drops every connection and refuses new
 * ones (as a database host going away would), `blackhole()` keeps every connection open and
 * accepts new ones but drops every byte in both directions, without a reset (as a network that
 * loses packets does), and `restore()` lets traffic through again.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private cutOff = false;
  private dropping = false;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    const server = createServer((client) => {
      if (this.cutOff) {
        client.destroy();
        return;
      }
      this.track(client);
      if (this.dropping) {
        // Accepted, then silence: the client waits for a server greeting that never comes.
        client.on('error', () => client.destroy());
        client.resume();
        return;
      }
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
      this.track(upstream);
      for (const socket of [client, upstream]) {
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      this.forward(client, upstream);
      this.forward(upstream, client);
      client.on('end', () => upstream.end());
      upstream.on('end', () => client.end());
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  cut(): void {
    this.cutOff = true;
    this.dropping = false;
    for (const socket of this.sockets) socket.destroy();
  }

  blackhole(): void {
    this.dropping = true;
  }

  restore(): void {
    this.cutOff = false;
    this.dropping = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** Copies `from` to `to` except while blackholed, when the bytes are read and thrown away. */
  private forward(from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (this.dropping) return;
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    });
  }
}
