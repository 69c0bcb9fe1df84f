import { isIP } from 'node:net';
import type { LevelWithSilent } from 'pino';

/** pino's levels, named in the one place (pino) that both the configuration and the logging know. */
export type LogLevel = LevelWithSilent;

/** How the service reaches its database, parsed from `DATABASE_URL`. */
export type DatabaseConfig =
  | { readonly type: 'sqlite'; readonly path: string }
  | {
      readonly type: 'mysql';
      readonly host: string;
      readonly port: number;
      readonly username: string;
      readonly password: string;
      readonly database: string;
    };

/** Connection pool and timeouts of the MySQL driver; a slow database never hangs a request. */
export interface DatabasePoolConfig {
  readonly size: number;
  readonly connectTimeoutMs: number;
  /** Longest wait for a free pooled connection. */
  readonly acquireTimeoutMs: number;
  readonly queryTimeoutMs: number;
}

export type TrustProxy = false | number | readonly string[];

export interface AuthConfig {
  /** How long a verified (or refused) credential is trusted without a new hash. */
  readonly cacheTtlMs: number;
  readonly cacheMaxEntries: number;
  /** Wrong credentials from one address for one user name within the window before 429. */
  readonly failureLimit: number;
  /** Wrong credentials from one address across user names within the window before 429. */
  readonly failureAddressLimit: number;
  readonly failureWindowMs: number;
  /** Password hashes computed at once (each takes 64 MiB and a libuv thread). */
  readonly hashConcurrency: number;
  /** Longest a password check waits for a hash slot before 503. */
  readonly hashMaxWaitMs: number;
  /**
   * scrypt's cost for new hashes, when not OWASP's (auth/password-hasher.ts). No variable sets
   * it: only a test that does not test hashing lowers it, through the config it builds.
   */
  readonly passwordHashing?: { readonly logN: number; readonly r: number; readonly p: number };
}

export interface IdempotencyConfig {
  /** How long a completed request's response is kept for replay (the draft suggests 24 h). */
  readonly ttlMs: number;
  /**
   * How long a key may stay "in flight" before it is considered abandoned (its request died with
   * its process) and a retry may take it over. Longer than any request can take.
   */
  readonly inFlightMs: number;
}

export interface WebhooksConfig {
  /**
   * Hosts, written exactly as a URL writes them (a name, an IPv4 address, `[an IPv6 address]`),
   * that a webhook may reach over plain http and at private, loopback or link-local addresses.
   */
  readonly allowedHosts: readonly string[];
  /** How long a subscriber's deliveries are retried after their first failure before it is disabled. */
  readonly retryPeriodMs: number;
  /** The most subscriptions there may be (each may hold a few deliveries in flight per instance). */
  readonly subscriptionsMax: number;
}

export interface MuseumConfig {
  /** The museum's IANA time zone: what "today" is, for opening hours, ticket dates and check-in. */
  readonly timeZone: string;
  /** What a general-admission ticket costs (the Museum API's price units, as an event's price). */
  readonly generalAdmissionPrice: number;
  /**
   * How long before its time a timed ticket (a general slot, an event session) is admitted at
   * the door: visitors queue before the hour, and a door that opens on the minute makes a crowd.
   */
  readonly entryEarlyMinutes: number;
}

/** Anonymous reads of what a museum shows its visitors (docs/api.md, Public read). */
export interface PublicReadConfig {
  /** Anonymous GET of the events, one event, the hours and the calendar; off: every read needs credentials. */
  readonly enabled: boolean;
  /** `max-age` of an anonymous answer's Cache-Control. */
  readonly maxAgeSeconds: number;
  /** `stale-while-revalidate` of an anonymous answer's Cache-Control. */
  readonly staleWhileRevalidateSeconds: number;
  /** Anonymous reads one client address may make within a window before 429. */
  readonly rateLimit: number;
  readonly rateWindowMs: number;
}

export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly databasePool: DatabasePoolConfig;
  /** Apply pending migrations at start. Default: on for SQLite, off for MySQL (see docs/deployment.md). */
  readonly runMigrations: boolean;
  readonly admin: { readonly username: string; readonly password: string } | null;
  readonly corsOrigins: readonly string[];
  readonly logLevel: LogLevel;
  /**
   * Express's `trust proxy`: false (the socket address), the number of proxies in front, or the
   * proxies' addresses and subnets. Never "trust everything" (see `trustProxy`).
   */
  readonly trustProxy: TrustProxy;
  /**
   * How many leading bits of an IPv6 client address make one client for every limit (the public
   * read limit, the failure limiter, the check-in guess limit): a subscriber's /64 by default.
   */
  readonly clientIpv6Prefix: number;
  /** Serve Prometheus metrics at GET /metrics (unauthenticated) and collect the HTTP ones. */
  readonly metricsEnabled: boolean;
  readonly auth: AuthConfig;
  /** After SIGTERM, how long requests in flight may take before their connections are closed. */
  readonly shutdownGraceSeconds: number;
  /** How long a request's headers may take to arrive before it is answered 408 (Node's headersTimeout). */
  readonly headersTimeoutMs: number;
  readonly idempotency: IdempotencyConfig;
  readonly webhooks: WebhooksConfig;
  readonly museum: MuseumConfig;
  readonly publicRead: PublicReadConfig;
  /** TEST_MODE: the /testing/ routes (a settable museum clock, a reset), said loudly everywhere. */
  readonly testMode: boolean;
}

/** Thrown at start for an invalid environment; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads and validates the whole configuration once, at start. Every problem stops the process
 * with a message naming the variable; nothing is read from `process.env` anywhere else.
 */
export function loadConfig(env: Env): AppConfig {
  const database = parseDatabaseUrl(read(env, 'DATABASE_URL') ?? 'sqlite:data/museum.sqlite');
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: host(env, 'HOST', '0.0.0.0'),
    database,
    databasePool: {
      size: integer(env, 'DB_POOL_SIZE', 10, 1, 1000),
      connectTimeoutMs: integer(env, 'DB_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
      acquireTimeoutMs: integer(env, 'DB_ACQUIRE_TIMEOUT_MS', 5000, 100, 600_000),
      queryTimeoutMs: integer(env, 'DB_QUERY_TIMEOUT_MS', 10_000, 100, 3_600_000),
    },
    runMigrations: boolean(env, 'DB_MIGRATIONS_RUN', database.type === 'sqlite'),
    admin: admin(env),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    clientIpv6Prefix: integer(env, 'CLIENT_IPV6_PREFIX', 64, 1, 128),
    metricsEnabled: boolean(env, 'METRICS_ENABLED', true),
    auth: {
      cacheTtlMs: integer(env, 'AUTH_CACHE_TTL_SECONDS', 60, 0, 86_400) * 1000,
      cacheMaxEntries: integer(env, 'AUTH_CACHE_MAX_ENTRIES', 10_000, 1, 10_000_000),
      failureLimit: integer(env, 'AUTH_FAILURE_LIMIT', 10, 1, 1_000_000),
      failureAddressLimit: integer(env, 'AUTH_FAILURE_ADDRESS_LIMIT', 50, 1, 1_000_000),
      failureWindowMs: integer(env, 'AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 86_400) * 1000,
      hashConcurrency: integer(env, 'AUTH_HASH_CONCURRENCY', 2, 1, 64),
      hashMaxWaitMs: integer(env, 'AUTH_HASH_MAX_WAIT_MS', 5000, 100, 600_000),
    },
    shutdownGraceSeconds: integer(env, 'SHUTDOWN_GRACE_SECONDS', 10, 0, 3600),
    // At most Node's requestTimeout (300 s), which bounds the whole request.
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 20_000, 100, 300_000),
    idempotency: {
      ttlMs: integer(env, 'IDEMPOTENCY_TTL_SECONDS', 86_400, 1, 604_800) * 1000,
      inFlightMs: integer(env, 'IDEMPOTENCY_IN_FLIGHT_SECONDS', 60, 1, 3600) * 1000,
    },
    webhooks: {
      allowedHosts: webhookHosts(env, 'WEBHOOK_ALLOWED_HOSTS'),
      retryPeriodMs: integer(env, 'WEBHOOK_RETRY_SECONDS', 86_400, 1, 30 * 86_400) * 1000,
      subscriptionsMax: integer(env, 'WEBHOOK_SUBSCRIPTIONS_MAX', 100, 1, 1000),
    },
    museum: {
      timeZone: timeZone(env, 'MUSEUM_TIME_ZONE', 'UTC'),
      generalAdmissionPrice: price(env, 'GENERAL_ADMISSION_PRICE', 25),
      entryEarlyMinutes: integer(env, 'ENTRY_EARLY_MINUTES', 15, 0, 720),
    },
    publicRead: {
      enabled: boolean(env, 'PUBLIC_READ', false),
      maxAgeSeconds: integer(env, 'PUBLIC_CACHE_MAX_AGE', 60, 0, 86_400),
      staleWhileRevalidateSeconds: integer(env, 'PUBLIC_CACHE_SWR', 300, 0, 86_400),
      rateLimit: integer(env, 'PUBLIC_RATE_LIMIT', 1000, 1, 1_000_000),
      rateWindowMs: integer(env, 'PUBLIC_RATE_WINDOW_SECONDS', 60, 1, 3600) * 1000,
    },
    testMode: testMode(env, database),
  };
}

/**
 * A reset empties the database in one call, so test mode is refused on MySQL unless the operator
 * names the database a second time in TEST_MODE_DATABASE: no production URL turns it on by a typo.
 */
function testMode(env: Env, database: DatabaseConfig): boolean {
  const on = boolean(env, 'TEST_MODE', false);
  const named = database.type === 'sqlite' || read(env, 'TEST_MODE_DATABASE') === database.database;
  if (on && !named) throw new ConfigError('TEST_MODE_DATABASE', 'must name the MySQL database for TEST_MODE on MySQL');
  return on;
}

/** `sqlite:PATH`, `sqlite::memory:` or `mysql://user:pass@host:port/db`. */
export function parseDatabaseUrl(value: string, variable = 'DATABASE_URL'): DatabaseConfig {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    if (path === '') throw new ConfigError(variable, 'must name a file after "sqlite:" (or use sqlite::memory:)');
    return { type: 'sqlite', path };
  }
  if (value.startsWith('mysql://')) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(variable, 'is not a valid mysql:// URL');
    }
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (!/^[A-Za-z0-9_$]{1,64}$/.test(database)) {
      throw new ConfigError(variable, 'must name the database in its path, e.g. mysql://user:pass@host:3306/museum');
    }
    const port = url.port === '' ? 3306 : Number(url.port);
    return {
      type: 'mysql',
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port,
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database,
    };
  }
  throw new ConfigError(variable, 'must start with "sqlite:" or "mysql://"');
}

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number from ${min} to ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be a whole number from ${min} to ${max}`);
  return value;
}

/** An IANA time zone name that this Node knows (`Europe/Paris`, `UTC`), in its canonical spelling. */
function timeZone(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  // Intl also takes a bare offset (+02:00), which keeps no daylight saving time: names only.
  try {
    if (!/^[A-Za-z]/.test(raw)) throw new RangeError('not a name');
    return new Intl.DateTimeFormat('en', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    throw new ConfigError(
      name,
      `must be an IANA time zone name such as Europe/Paris or UTC, not ${JSON.stringify(raw)}`,
    );
  }
}

/** A price: a number from 0 with at most two decimals. */
function price(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(raw)) throw new ConfigError(name, 'must be a price such as 25 or 12.50');
  return Number(raw);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, 'must be true or false');
}

/** Express's named address sets for `trust proxy`. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `false` (the default), a hop count, or a comma-separated list of proxy addresses, CIDR subnets
 * and Express's names (loopback, linklocal, uniquelocal). `true` is refused: Express would then
 * take the leftmost X-Forwarded-For entry, which the client writes, so every client could choose
 * the address the failure limiter counts.
 */
function trustProxy(env: Env, name: string): TrustProxy {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined || ['false', 'no', 'off'].includes(raw)) return false;
  if (['true', 'yes', 'on'].includes(raw)) {
    throw new ConfigError(
      name,
      'must not trust every proxy (a client could then choose its own address): give the number of proxies in front of the service (e.g. 1) or their addresses (e.g. 10.0.0.0/8, loopback)',
    );
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new ConfigError(name, 'must be a hop count from 0 to 10, or proxy addresses');
    return hops === 0 ? false : hops;
  }
  return raw.split(',').map((entry) => {
    const value = entry.trim();
    if (!PROXY_NAMES.includes(value) && !isAddressOrSubnet(value)) {
      throw new ConfigError(
        name,
        `has an entry that is not an IP address, a CIDR subnet or ${PROXY_NAMES.join('/')}: "${value}"`,
      );
    }
    return value;
  });
}

function isAddressOrSubnet(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of: ${allowed.join(', ')}`);
  }
  return raw as T;
}

function host(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (isIP(raw) === 0 && !/^[A-Za-z0-9.-]{1,253}$/.test(raw)) {
    throw new ConfigError(name, 'must be an IP address or a host name');
  }
  return raw;
}

function origins(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw.split(',').map((entry) => {
    const origin = entry.trim();
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new ConfigError(name, `has an entry that is not an origin: "${origin}"`);
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.origin !== origin) {
      throw new ConfigError(name, `entries must be bare origins such as https://app.example.org, got "${origin}"`);
    }
    return origin;
  });
}

/**
 * A comma-separated list of hosts as URLs write them: `receiver.internal`, `127.0.0.1`, `[::1]`.
 * Compared with a webhook URL's host (lowercase, the port not included).
 */
function webhookHosts(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw.split(',').map((entry) => {
    const value = entry.trim().toLowerCase();
    let parsed: URL | undefined;
    try {
      parsed = new URL(`http://${value}/`);
    } catch {
      parsed = undefined;
    }
    if (value === '' || parsed?.hostname !== value) {
      throw new ConfigError(
        name,
        `has an entry that is not a host as a URL writes it (a name, an IPv4 address or [an IPv6 address], without a port): "${entry.trim()}"`,
      );
    }
    return value;
  });
}

/**
 * Both admin variables or neither. The user-name and password rules are the users' own (auth/),
 * checked when the admin bootstrap applies them, before the service listens.
 */
function admin(env: Env): AppConfig['admin'] {
  const username = read(env, 'ADMIN_USERNAME');
  const password = env.ADMIN_PASSWORD;
  if (username === undefined && (password === undefined || password === '')) return null;
  if (username === undefined) throw new ConfigError('ADMIN_USERNAME', 'must be set when ADMIN_PASSWORD is set');
  if (password === undefined || password === '') {
    throw new ConfigError('ADMIN_PASSWORD', 'must be set when ADMIN_USERNAME is set');
  }
  return { username, password };
}
