import type { LoggerService } from '@nestjs/common';
import { pino, type LevelWithSilent as LogLevel, type Logger } from 'pino';
import { currentRequestId } from './request-context.js';

/**
 * Paths never written to a log, whatever the level. Nothing here logs requests' headers, cookies
 * or bodies (the request serializers are allowlists), but a future log line that does must not
 * leak credentials.
 */
export const REDACTED_PATHS = [
  'authorization',
  'password',
  'cookie',
  '*.authorization',
  '*.password',
  '*.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
];

/** The options every pino logger of the service shares: no pid/hostname, secrets redacted. */
export function pinoOptions(level: LogLevel): pino.LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: undefined };
}

/** A plain pino logger (the users CLI's; the service's own goes through createApp). */
export function createPino(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(pinoOptions(level), destination);
}

/**
 * Nest's logger interface on a plain pino logger: one JSON line per entry, `context` as a field,
 * and `requestId` when the line is logged while a request is handled and the request context is
 * on (request-context.ts). The service's logger (createApp) and the users CLI's.
 */
export class PinoLoggerService implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    // Nest passes (message, stack?, context?).
    const context = typeof rest.at(-1) === 'string' && rest.length > 0 ? (rest.pop() as string) : undefined;
    const stack = typeof rest[0] === 'string' ? rest[0] : undefined;
    this.emit('error', message, context, stack ? { stack } : undefined);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    const context = typeof rest.at(-1) === 'string' ? (rest.at(-1) as string) : undefined;
    this.emit(level, message, context);
  }

  private emit(level: pino.Level, message: unknown, context?: string, extra?: object): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const requestId = currentRequestId();
    const fields = requestId === undefined ? { context, ...extra } : { requestId, context, ...extra };
    if (message !== null && typeof message === 'object' && !(message instanceof Error)) {
      this.pino[level]({ ...fields, ...message });
    } else if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else {
      this.pino[level](fields, String(message));
    }
  }
}
