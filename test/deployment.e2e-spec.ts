/**
 * No Docker engine runs on this machine or in CI, so `docker compose up` cannot be tried here.
 * What can be checked without one is checked: the compose file's structure and wiring, the
 * Dockerfile's stages, user and commands, that everything it copies exists, and that the
 * compiled service needs nothing outside `dependencies` (what `npm ci --omit=dev` installs).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { parse } from 'yaml';
import { parseDatabaseUrl } from '../src/config/app-config.js';
import { V8_FLAGS } from '../src/v8-flags.js';
import { buildService } from './helpers/built-service.js';
import { createTestDatabase } from './helpers/test-database.js';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
}

/** Applies compose's `${VAR:-default}` / `${VAR:?message}` substitution with an empty environment. */
function withDefaults(value: string): string {
  return value.replace(/\$\{(\w+):-([^}]*)\}/g, '$2').replace(/\$\{(\w+):\?[^}]*\}/g, 'required-value');
}

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml')) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };

  it('runs MySQL 8.4 with a healthcheck, utf8mb4 and a named volume', () => {
    const mysql = compose.services.mysql;
    expect(mysql.image).toBe('mysql:8.4');
    expect(mysql.healthcheck?.test.join(' ')).toContain('mysqladmin ping');
    expect(mysql.command).toContain('--character-set-server=utf8mb4');
    const [volume, mountPoint] = (mysql.volumes?.[0] ?? '').split(':');
    expect(mountPoint).toBe('/var/lib/mysql');
    expect(Object.keys(compose.volumes)).toContain(volume);
  });

  it('builds the service from the Dockerfile and wires it to MySQL by DATABASE_URL, after MySQL is healthy', () => {
    const service = compose.services.service;
    expect(service.build).toBe('.');
    expect(service.depends_on?.mysql.condition).toBe('service_healthy');
    const env = service.environment ?? {};
    const database = parseDatabaseUrl(withDefaults(env.DATABASE_URL));
    expect(database).toMatchObject({
      type: 'mysql',
      host: 'mysql',
      port: 3306,
      database: compose.services.mysql.environment?.MYSQL_DATABASE,
    });
    expect(database.type === 'mysql' && database.username).toBe(compose.services.mysql.environment?.MYSQL_USER);
    expect(env.DB_MIGRATIONS_RUN).toBe('true');
    expect(env.ADMIN_PASSWORD).toMatch(/\$\{ADMIN_PASSWORD:\?/);
    expect(service.ports).toContain('3000:3000');
    expect(service.healthcheck?.test.join(' ')).toContain('/health/ready');
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const finalStage = stages.at(-1) ?? '';

  it('is multi-stage and the final stage runs as a non-root user with production dependencies only', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/RUN npm ci --omit=dev/);
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage.indexOf('USER node')).toBeLessThan(finalStage.indexOf('CMD'));
    // The V8 flags main.ts would otherwise relaunch itself with (src/v8-flags.ts), given up front.
    const cmd = /^CMD (\[.*\])$/m.exec(finalStage)?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual(['node', ...V8_FLAGS, 'dist/main.js']);
    expect(finalStage).not.toMatch(/npm ci(?! --omit=dev)/);
  });

  it('ships one Node: the production install leaves out the optional node-* runtime packages', () => {
    expect(dockerfile).toMatch(/RUN npm ci --omit=dev --omit=optional/);
    // Nothing the service needs at run time may be optional, or --omit=optional would drop it.
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { optional?: boolean; dev?: boolean; devOptional?: boolean }>;
    };
    const optionalAtRunTime = Object.entries(lock.packages)
      .filter(([, entry]) => entry.optional === true && entry.dev !== true && entry.devOptional !== true)
      .map(([path]) => path.replace(/^node_modules\//, ''));
    expect(optionalAtRunTime.length).toBeGreaterThan(0);
    expect(optionalAtRunTime.filter((name) => !/^node-(linux|win|darwin)-[a-z0-9]+$/.test(name))).toEqual([]);
  });

  it('copies only files that exist, and .dockerignore keeps local builds and modules out', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((match) => match[1].split(/\s+/));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((source) => !existsSync(join(ROOT, source)))).toEqual([]);
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'dist', 'data']) expect(ignored).toContain(entry);
  });

  it('the compiled service imports nothing that `npm ci --omit=dev` leaves out', () => {
    const entry = buildService();
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    const allowed = new Set([...Object.keys(pkg.dependencies), ...builtinModules]);
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.js')) files.push(path);
      }
    };
    walk(join(entry, '..'));
    const missing = new Set<string>();
    for (const file of files) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
        // Not a method call (`.from('calendar_tokens')`, a query builder's table).
        /(?<![.\w])(?:from|import)\s*\(?\s*['"]([^'"\s]+)['"]/g,
      )) {
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        if (!allowed.has(name)) missing.add(`${name} (in ${file.slice(ROOT.length + 1)})`);
      }
    }
    expect([...missing]).toEqual([]);
    expect(files.length).toBeGreaterThan(20);
  }, 60_000);
});

describe('migrations in a production image (compiled DataSource, TypeORM CLI, no dev dependencies)', () => {
  it('migration:run then migration:show on the compiled data source', async () => {
    const entry = buildService();
    const database = await createTestDatabase();
    try {
      const cli = (command: string) =>
        execFileSync(
          process.execPath,
          [join(ROOT, 'node_modules/typeorm/cli.js'), command, '-d', join(entry, '../data-source.js')],
          {
            cwd: ROOT,
            env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url },
            encoding: 'utf8',
          },
        );
      expect(cli('migration:run')).toContain('InitialSchema1763800000000');
      expect(cli('migration:show')).toMatch(/\[X\] \d+ InitialSchema1763800000000/);
    } finally {
      await database.drop();
    }
  }, 60_000);
});
