import { pino, type DestinationStream, type LevelWithSilent as LogLevel, type Logger } from 'pino';
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
 * The logger every line of the service goes through (Nest's logger is a PinoLoggerService on it).
 * One per process: the e2e tests start several apps in one process, one after the other, each
 * capturing its own lines, and `directLogs` points its output at the app being created.
 */
export const processLogger: Logger = pino(pinoOptions('info'), output);

/**
 * The request lines' logger: same output and level, without redaction. A request line is built
 * field by field from an allowlist (logRequestLine) whose names never match a redacted path, so
 * redaction could never act on it; it cost ~7 µs per line.
 */
export const requestLineLogger: Logger = pino({ level: 'info', base: undefined }, output);

/**
 * Sends the service's log lines to `destination` from now on, at `level`. Without a destination:
 * standard output, as JSON lines, or pretty-printed when it is a terminal.
 */
export function directLogs(level: LogLevel, destination?: DestinationStream): void {
  output.destination = destination ?? standardOutput();
  processLogger.level = level;
  requestLineLogger.level = level;
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
