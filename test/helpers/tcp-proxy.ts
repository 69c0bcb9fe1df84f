import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 that a test controls: `cut()` drops every connection and refuses new
 * ones (as a database host going away would), `restore()` lets traffic through again.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private cutOff = false;

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
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  cut(): void {
    this.cutOff = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
