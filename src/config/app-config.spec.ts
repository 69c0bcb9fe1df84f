import { ConfigError, loadConfig, parseDatabaseUrl } from './app-config.js';

type Env = Record<string, string | undefined>;

/** The ConfigError `loadConfig(env)` throws; fails the test when it throws anything else. */
function configErrorOf(env: Env): ConfigError {
  let thrown: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}

const ADMIN = { ADMIN_USERNAME: 'curator', ADMIN_PASSWORD: 'correct horse battery' };

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.database).toEqual({ type: 'sqlite', path: 'data/museum.sqlite' });
    expect(config.logLevel).toBe('info');
    expect(config.admin).toBeNull();
    expect(config.corsOrigins).toEqual([]);
    expect(config.runMigrations).toBe(true);
    expect(config.trustProxy).toBe(false);
    expect(config.clientIpv6Prefix).toBe(64);
    expect(config.metricsEnabled).toBe(true);
    expect(config.museum).toEqual({ timeZone: 'UTC', generalAdmissionPrice: 25, entryEarlyMinutes: 15 });
    expect(config.shutdownGraceSeconds).toBe(10);
    expect(config.headersTimeoutMs).toBe(20_000);
    expect(config.auth.hashConcurrency).toBe(2);
    expect(config.auth.failureAddressLimit).toBeGreaterThan(config.auth.failureLimit);
    expect(config.auth.failureLimit).toBeGreaterThanOrEqual(1);
    expect(config.auth.cacheTtlMs).toBeGreaterThan(0);
    expect(config.auth.cacheMaxEntries).toBeGreaterThan(0);
  });

  it('keeps idempotent responses 24 h and an in-flight key 60 s by default; both are configurable and checked', () => {
    expect(loadConfig({}).idempotency).toEqual({ ttlMs: 86_400_000, inFlightMs: 60_000 });
    expect(loadConfig({ IDEMPOTENCY_TTL_SECONDS: '1', IDEMPOTENCY_IN_FLIGHT_SECONDS: '3600' }).idempotency).toEqual({
      ttlMs: 1000,
      inFlightMs: 3_600_000,
    });
    for (const [variable, value] of [
      ['IDEMPOTENCY_TTL_SECONDS', '0'],
      ['IDEMPOTENCY_TTL_SECONDS', '604801'],
      ['IDEMPOTENCY_IN_FLIGHT_SECONDS', '0'],
      ['IDEMPOTENCY_IN_FLIGHT_SECONDS', 'soon'],
    ]) {
      expect(configErrorOf({ [variable]: value }).variable).toBe(variable);
    }
  });

  it('allows no webhook host by default, retries deliveries 24 h, 100 subscriptions; hosts are taken as URLs write them', () => {
    expect(loadConfig({}).webhooks).toEqual({ allowedHosts: [], retryPeriodMs: 86_400_000, subscriptionsMax: 100 });
    expect(
      loadConfig({
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1, Receiver.Internal,[::1]',
        WEBHOOK_RETRY_SECONDS: '60',
        WEBHOOK_SUBSCRIPTIONS_MAX: '5',
      }).webhooks,
    ).toEqual({
      allowedHosts: ['127.0.0.1', 'receiver.internal', '[::1]'],
      retryPeriodMs: 60_000,
      subscriptionsMax: 5,
    });
    for (const [variable, value] of [
      ['WEBHOOK_ALLOWED_HOSTS', '127.0.0.1:8080'],
      ['WEBHOOK_ALLOWED_HOSTS', '::1'],
      ['WEBHOOK_ALLOWED_HOSTS', 'http://receiver'],
      ['WEBHOOK_ALLOWED_HOSTS', 'a,,b'],
      ['WEBHOOK_RETRY_SECONDS', '0'],
      ['WEBHOOK_SUBSCRIPTIONS_MAX', '0'],
      ['WEBHOOK_SUBSCRIPTIONS_MAX', '1001'],
      ['WEBHOOK_SUBSCRIPTIONS_MAX', 'many'],
    ]) {
      expect(configErrorOf({ [variable]: value }).variable).toBe(variable);
    }
  });

  it('treats empty and blank values as unset', () => {
    const config = loadConfig({ PORT: '', HOST: '  ', DATABASE_URL: '', LOG_LEVEL: ' ', CORS_ORIGINS: '' });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.database).toEqual({ type: 'sqlite', path: 'data/museum.sqlite' });
    expect(config.logLevel).toBe('info');
    expect(config.corsOrigins).toEqual([]);
  });

  it('reads valid values', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      CORS_ORIGINS: 'https://app.example.org, http://localhost:5173',
      AUTH_FAILURE_LIMIT: '1',
      ...ADMIN,
    });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.logLevel).toBe('debug');
    expect(config.corsOrigins).toEqual(['https://app.example.org', 'http://localhost:5173']);
    expect(config.auth.failureLimit).toBe(1);
    expect(config.admin).toEqual({ username: 'curator', password: 'correct horse battery' });
  });

  it('switches metrics off with METRICS_ENABLED=false (or 0, no, off), any letter case', () => {
    for (const value of ['false', 'FALSE', '0', 'no', 'off'])
      expect(loadConfig({ METRICS_ENABLED: value }).metricsEnabled).toBe(false);
    for (const value of ['true', '1', 'yes', 'On'])
      expect(loadConfig({ METRICS_ENABLED: value }).metricsEnabled).toBe(true);
    expect(loadConfig({ METRICS_ENABLED: ' ' }).metricsEnabled).toBe(true);
  });

  it('accepts the port boundaries 0 and 65535', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '65536' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '80.5' }],
    ['PORT', { PORT: '0x50' }],
    ['HOST', { HOST: 'not a host' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://x' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://h' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://user:pass@h:3306/' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://user:pass@h:3306/bad-name' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://user:pass@h:notaport/db' }],
    ['DATABASE_URL', { DATABASE_URL: 'sqlite:' }],
    ['DATABASE_URL', { DATABASE_URL: 'data/museum.sqlite' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'not-a-url' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://a.example/path' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://a.example/' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://ok.example,ftp://a.example' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: '*' }],
    ['AUTH_FAILURE_LIMIT', { AUTH_FAILURE_LIMIT: '0' }],
    ['AUTH_FAILURE_LIMIT', { AUTH_FAILURE_LIMIT: 'ten' }],
    ['AUTH_CACHE_TTL_SECONDS', { AUTH_CACHE_TTL_SECONDS: '-5' }],
    ['DB_MIGRATIONS_RUN', { DB_MIGRATIONS_RUN: 'maybe' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'true' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }],
    ['TRUST_PROXY', { TRUST_PROXY: '11' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'loopback, proxy.example.org' }],
    ['CLIENT_IPV6_PREFIX', { CLIENT_IPV6_PREFIX: '0' }],
    ['CLIENT_IPV6_PREFIX', { CLIENT_IPV6_PREFIX: '129' }],
    ['CLIENT_IPV6_PREFIX', { CLIENT_IPV6_PREFIX: '/64' }],
    ['METRICS_ENABLED', { METRICS_ENABLED: 'disabled' }],
    ['SHUTDOWN_GRACE_SECONDS', { SHUTDOWN_GRACE_SECONDS: '-1' }],
    ['HEADERS_TIMEOUT_MS', { HEADERS_TIMEOUT_MS: '99' }],
    ['HEADERS_TIMEOUT_MS', { HEADERS_TIMEOUT_MS: '300001' }],
    ['AUTH_FAILURE_ADDRESS_LIMIT', { AUTH_FAILURE_ADDRESS_LIMIT: '0' }],
    ['AUTH_HASH_CONCURRENCY', { AUTH_HASH_CONCURRENCY: '0' }],
    ['AUTH_HASH_MAX_WAIT_MS', { AUTH_HASH_MAX_WAIT_MS: 'soon' }],
  ])('rejects an invalid %s, naming it: %j', (variable, env) => {
    const error = configErrorOf(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('reads CLIENT_IPV6_PREFIX as a prefix length from 1 to 128', () => {
    expect(loadConfig({ CLIENT_IPV6_PREFIX: '48' }).clientIpv6Prefix).toBe(48);
    expect(loadConfig({ CLIENT_IPV6_PREFIX: '128' }).clientIpv6Prefix).toBe(128);
  });

  it('reads TRUST_PROXY as off, a hop count, or proxy addresses, subnets and Express names', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::1 , fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '2001:db8::1',
      'fd00::/8',
    ]);
  });

  it('refuses TRUST_PROXY=true with a message saying what to give instead', () => {
    expect(configErrorOf({ TRUST_PROXY: 'true' }).message).toMatch(
      /^Invalid configuration: TRUST_PROXY must not trust every proxy .*number of proxies.*addresses/,
    );
  });

  it('names both admin variables when only ADMIN_USERNAME is set', () => {
    const error = configErrorOf({ ADMIN_USERNAME: 'curator' });
    expect(error.variable).toBe('ADMIN_PASSWORD');
    expect(error.message).toBe('Invalid configuration: ADMIN_PASSWORD must be set when ADMIN_USERNAME is set');
  });

  it('names both admin variables when only ADMIN_PASSWORD is set', () => {
    const error = configErrorOf({ ADMIN_PASSWORD: 'correct horse battery' });
    expect(error.variable).toBe('ADMIN_USERNAME');
    expect(error.message).toBe('Invalid configuration: ADMIN_USERNAME must be set when ADMIN_PASSWORD is set');
    expect(error.message).not.toContain('correct horse');
  });

  it('accepts an admin password of exactly 12 characters, and keeps its spaces', () => {
    expect(loadConfig({ ADMIN_USERNAME: 'curator', ADMIN_PASSWORD: '123456789012' }).admin?.password).toBe(
      '123456789012',
    );
    expect(loadConfig({ ADMIN_USERNAME: 'curator', ADMIN_PASSWORD: ' twelve chars ' }).admin?.password).toBe(
      ' twelve chars ',
    );
  });

  it('is a ConfigError, an Error with its own name', () => {
    const error = configErrorOf({ PORT: 'abc' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ConfigError');
  });

  it('parses a MySQL URL, decoding an url-encoded password, and turns migrations off by default', () => {
    const config = loadConfig({ DATABASE_URL: 'mysql://museum:p%40ss%3Aw%2Frd%25@db.example.org:3307/museum_db' });
    expect(config.database).toEqual({
      type: 'mysql',
      host: 'db.example.org',
      port: 3307,
      username: 'museum',
      password: 'p@ss:w/rd%',
      database: 'museum_db',
    });
    expect(config.runMigrations).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'mysql://u:p@h/db', DB_MIGRATIONS_RUN: 'true' }).runMigrations).toBe(true);
  });

  it('defaults the MySQL port to 3306 and unwraps an IPv6 host', () => {
    expect(parseDatabaseUrl('mysql://u:p@db/museum')).toMatchObject({ host: 'db', port: 3306, database: 'museum' });
    expect(parseDatabaseUrl('mysql://u:p@[::1]:3306/museum')).toMatchObject({ host: '::1', port: 3306 });
  });

  it('parses sqlite::memory: and sqlite file paths', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).database).toEqual({ type: 'sqlite', path: ':memory:' });
    expect(parseDatabaseUrl('sqlite:/var/lib/museum/events.sqlite')).toEqual({
      type: 'sqlite',
      path: '/var/lib/museum/events.sqlite',
    });
  });

  it('reads the museum time zone in its canonical spelling and refuses an unknown one', () => {
    expect(loadConfig({ MUSEUM_TIME_ZONE: 'Europe/Paris' }).museum.timeZone).toBe('Europe/Paris');
    expect(loadConfig({ MUSEUM_TIME_ZONE: 'europe/paris' }).museum.timeZone).toBe('Europe/Paris');
    const error = configErrorOf({ MUSEUM_TIME_ZONE: 'Mars/Olympus_Mons' });
    expect(error.variable).toBe('MUSEUM_TIME_ZONE');
    expect(error.message).toContain('IANA time zone');
    expect(configErrorOf({ MUSEUM_TIME_ZONE: '+02:00' }).variable).toBe('MUSEUM_TIME_ZONE');
  });

  it('reads GENERAL_ADMISSION_PRICE as a price with at most two decimals', () => {
    expect(loadConfig({ GENERAL_ADMISSION_PRICE: '12.50' }).museum.generalAdmissionPrice).toBe(12.5);
    expect(loadConfig({ GENERAL_ADMISSION_PRICE: '0' }).museum.generalAdmissionPrice).toBe(0);
    for (const bad of ['-1', '1.234', 'free', '1e3']) {
      expect(configErrorOf({ GENERAL_ADMISSION_PRICE: bad }).variable).toBe('GENERAL_ADMISSION_PRICE');
    }
  });

  it('reads ENTRY_EARLY_MINUTES as whole minutes from 0 to 720, 15 by default', () => {
    expect(loadConfig({}).museum.entryEarlyMinutes).toBe(15);
    expect(loadConfig({ ENTRY_EARLY_MINUTES: '0' }).museum.entryEarlyMinutes).toBe(0);
    expect(loadConfig({ ENTRY_EARLY_MINUTES: '720' }).museum.entryEarlyMinutes).toBe(720);
    for (const bad of ['-1', '721', '1.5', 'soon']) {
      expect(configErrorOf({ ENTRY_EARLY_MINUTES: bad }).variable).toBe('ENTRY_EARLY_MINUTES');
    }
  });

  it('keeps public read off by default; its cache and rate settings are configurable and checked', () => {
    expect(loadConfig({}).publicRead).toEqual({
      enabled: false,
      maxAgeSeconds: 60,
      staleWhileRevalidateSeconds: 300,
      rateLimit: 1000,
      rateWindowMs: 60_000,
    });
    expect(
      loadConfig({
        PUBLIC_READ: 'true',
        PUBLIC_CACHE_MAX_AGE: '0',
        PUBLIC_CACHE_SWR: '30',
        PUBLIC_RATE_LIMIT: '5',
        PUBLIC_RATE_WINDOW_SECONDS: '10',
      }).publicRead,
    ).toEqual({ enabled: true, maxAgeSeconds: 0, staleWhileRevalidateSeconds: 30, rateLimit: 5, rateWindowMs: 10_000 });
    for (const [variable, value] of [
      ['PUBLIC_READ', 'sometimes'],
      ['PUBLIC_CACHE_MAX_AGE', '-1'],
      ['PUBLIC_CACHE_SWR', '86401'],
      ['PUBLIC_RATE_LIMIT', '0'],
      ['PUBLIC_RATE_WINDOW_SECONDS', 'minute'],
    ]) {
      expect(configErrorOf({ [variable]: value }).variable).toBe(variable);
    }
  });

  it('keeps TEST_MODE off by default; on MySQL it asks for the database named a second time', () => {
    expect(loadConfig({}).testMode).toBe(false);
    expect(loadConfig({ TEST_MODE: 'true', DATABASE_URL: 'sqlite::memory:' }).testMode).toBe(true);
    const mysql = 'mysql://u:p@db:3306/museum';
    expect(configErrorOf({ TEST_MODE: 'true', DATABASE_URL: mysql }).variable).toBe('TEST_MODE_DATABASE');
    expect(configErrorOf({ TEST_MODE: 'true', DATABASE_URL: mysql, TEST_MODE_DATABASE: 'museum2' }).variable).toBe(
      'TEST_MODE_DATABASE',
    );
    expect(loadConfig({ TEST_MODE: 'true', DATABASE_URL: mysql, TEST_MODE_DATABASE: 'museum' }).testMode).toBe(true);
    expect(loadConfig({ DATABASE_URL: mysql }).testMode).toBe(false);
    expect(configErrorOf({ TEST_MODE: 'maybe' }).variable).toBe('TEST_MODE');
  });
});
