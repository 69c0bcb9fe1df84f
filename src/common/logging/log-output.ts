import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../../config/app-config.js';
import { pinoOptions } from './pino-logger.js';

/** Forwards every line to the destination of the app being run. */
class LogOutput implements DestinationStream {
  destination?: DestinationStream;

  write(line: string): void {
    (this.destination ??= standardOutput()).write(line);
  }
}

const output = new LogOutput();

/**
 * The logger every line of the service goes through. nestjs-pino builds one pino-http instance
 * per process, from the parameters of the first app that uses it, and keeps it for every later
 * app (its rootLogger module); the e2e tests start several apps in one process, one after the
 * other, each capturing its own lines. So that instance, and the request logger, are children of
 * this logger, and `directLogs` points this logger's output at the app being created.
 */
export const processLogger: Logger = pino(pinoOptions('info'), output);

/**
 * Sends the service's log lines to `destination` from now on, at `level`. Without a destination:
 * standard output, as JSON lines, or pretty-printed when it is a terminal.
 */
export function directLogs(level: LogLevel, destination?: DestinationStream): void {
  output.destination = destination ?? standardOutput();
  // Children created without a level of their own (nestjs-pino's root, the per-request loggers)
  // follow it: pino children inherit through the prototype chain.
  processLogger.level = level;
}

let stdout: DestinationStream | undefined;

/** Lines are written to fd 1 in batches of at least this many bytes, or every LOG_FLUSH_MS. */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_MS = 100;

/**
 * One per process: a pretty-printing worker thread on a terminal, else fd 1 (JSON lines).
 *
 * Lines are batched: under load one write(2) per request line was a measurable share of a
 * request's CPU. A line waits at most LOG_FLUSH_MS, and pino flushes what is left synchronously
 * when the process exits (normal exit, process.exit, an uncaught exception); only a SIGKILL can
 * lose the last LOG_FLUSH_MS of lines.
 */
function standardOutput(): DestinationStream {
  stdout ??= process.stdout.isTTY
    ? pino.transport({
        target: 'pino-pretty',
        options: { destination: 1, colorize: true, translateTime: 'SYS:HH:MM:ss.l' },
      })
    : pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS });
  return stdout;
}
