/** A server's resident memory (VmRSS from /proc/<pid>/status): its peak under load, and at rest. */
import { readFileSync } from 'node:fs';
import { sleep } from '../servers/http.js';
import type { ServerProcess } from '../servers/process.js';

/** The largest VmRSS of a process, read from /proc/<pid>/status every `everyMs`. */
export class RssSampler {
  private maxKib = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pid: number,
    private readonly everyMs = 100,
  ) {}

  start(): void {
    this.maxKib = 0;
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  /** Stops sampling; the maximum in MiB (0 when nothing could be read). */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.maxKib / 1024;
  }

  private sample(): void {
    const kib = readRssKib(this.pid);
    if (kib !== undefined && kib > this.maxKib) this.maxKib = kib;
  }
}

function readRssKib(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** How long a server sits idle, once ready, before its idle RSS is read. */
export const IDLE_RSS_AFTER_MS = 1000;

/**
 * VmRSS in MiB of a server that is ready and has had no load yet, read once after
 * IDLE_RSS_AFTER_MS: what the process costs at rest, before any request grows its heap (the
 * readiness polls aside). Undefined when /proc cannot be read.
 */
export async function idleRssMiB(server: ServerProcess): Promise<number | undefined> {
  await sleep(IDLE_RSS_AFTER_MS);
  server.checkRunning('while idle');
  const kib = readRssKib(server.pid);
  return kib === undefined ? undefined : kib / 1024;
}
