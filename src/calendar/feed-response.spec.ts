import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Response } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { drained } from './feed-response.js';

/** A server that writes 64 MiB in 64 KiB chunks, waiting for `drained` whenever the socket is full. */
function writer(stallMs: number, outcome: (what: string) => void): Server {
  return createServer((request, response) => {
    void (async () => {
      const chunk = Buffer.alloc(64 * 1024, 120);
      response.setHeader('Content-Length', 1024 * chunk.length);
      let closed = false;
      response.once('close', () => (closed = true));
      for (let i = 0; i < 1024; i++) {
        if (closed) return outcome('closed');
        if (!response.write(chunk)) await drained(response as unknown as Response, stallMs);
      }
      response.end();
      outcome('sent');
    })();
  });
}

describe('drained', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  /** The writer listening, a client connected to it that has asked, and what the writer did. */
  async function asked(stallMs: number): Promise<{ socket: Socket; outcomes: string[] }> {
    const outcomes: string[] = [];
    server = writer(stallMs, (what) => outcomes.push(what));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    return { socket, outcomes };
  }

  it("closes the connection of a client that stopped reading, so the feed's turn comes back", async () => {
    // Asks, and never reads: the socket's buffers fill and no 'drain' ever comes.
    const { socket, outcomes } = await asked(300);
    socket.pause();
    const started = Date.now();
    while (outcomes.length === 0 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 20));
    expect(outcomes).toEqual(['closed']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    socket.destroy();
  });

  it('lets a client that reads, however its reads are spaced, take the whole answer', async () => {
    const { socket, outcomes } = await asked(300);
    let received = 0;
    socket.on('data', (data: Buffer) => {
      received += data.length;
      // Pauses of 100 ms now and then: progress within the stall bound each time.
      if (received % (8 * 1024 * 1024) < data.length) {
        socket.pause();
        setTimeout(() => socket.resume(), 100);
      }
    });
    const started = Date.now();
    // The server has written the last octets once 'sent'; the client has them a moment later.
    while ((outcomes.length === 0 || received <= 64 * 1024 * 1024) && Date.now() - started < 20_000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(outcomes).toEqual(['sent']);
    expect(received).toBeGreaterThan(64 * 1024 * 1024);
    socket.destroy();
  });
});
