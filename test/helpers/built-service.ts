import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { childEnv, killLeftovers, ProcessRun, ROOT } from './service-process.js';
import { useTestDatabase, type TestDatabase, type TestDatabaseKind } from './test-database.js';

/**
 * The service compiled once per test run into `.test-build/service-<run>` (not `dist/`, which
 * `npm start` rebuilds and deletes, possibly while another test file runs it), shared by every
 * file that runs it: the first caller compiles while the others wait for it. vitest.config.ts
 * names the run (TEST_RUN_ID); files may only read what is there. Outside a test run (the bench)
 * every process builds its own. Returns the entry point.
 */
export function buildService(): string {
  process.env.TEST_RUN_ID ??= `${Date.now().toString(36)}-${process.pid}`;
  const outDir = join(ROOT, '.test-build', `service-${process.env.TEST_RUN_ID}`);
  const built = join(outDir, '.built');
  const lock = `${outDir}.lock`;
  if (!existsSync(built)) {
    let mine = true;
    // The parent first: in a fresh clone nothing has made .test-build yet, and a failure to make
    // the lock must mean that another file holds it.
    mkdirSync(dirname(outDir), { recursive: true });
    try {
      mkdirSync(lock, { recursive: false });
    } catch {
      mine = false;
    }
    if (mine) {
      try {
        rmSync(outDir, { recursive: true, force: true });
        execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', outDir], {
          cwd: ROOT,
          stdio: 'inherit',
        });
        copyAssets(ROOT, outDir);
        writeFileSync(built, '');
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    } else {
      // Another file compiles: wait for it (synchronously, as the compile itself is).
      const pause = new Int32Array(new SharedArrayBuffer(4));
      while (!existsSync(built) && existsSync(lock)) Atomics.wait(pause, 0, 0, 200);
      if (!existsSync(built)) throw new Error(`the shared build in ${outDir} failed in another test file`);
    }
  }
  return join(outDir, 'main.js');
}

/**
 * What `nest build` adds to tsc's output: the folders nest-cli.json lists as assets (the door
 * page's), copied from `root`'s src/ into `outDir`. A checkout without any copies nothing.
 */
export function copyAssets(root: string, outDir: string): void {
  const cli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8')) as {
    compilerOptions?: { assets?: (string | { include: string })[] };
  };
  for (const asset of cli.compilerOptions?.assets ?? []) {
    // `door/page/*` is the folder `door/page`.
    const folder = (typeof asset === 'string' ? asset : asset.include).replace(/\/\*.*$/, '');
    cpSync(join(root, 'src', folder), join(outDir, folder), { recursive: true });
  }
}

export interface BuiltService {
  /** The compiled entry point, for startService. */
  readonly entry: string;
  /** A fresh database of the given kind, for the service's DATABASE_URL. */
  readonly database: TestDatabase;
}

export interface BuiltServiceOptions {
  /** The services are started in beforeAll and serve every test: leftovers are killed only after all. */
  readonly sharedAcrossTests?: boolean;
}

/**
 * The set-up of a describe that runs the compiled service, registered in it: the service built
 * (once per run) and a fresh database before all tests, every process still running
 * killed after each test (after all, with `sharedAcrossTests`) so that a failed test leaves no
 * service holding the database, then the database dropped. The handle's properties are there once
 * beforeAll has run (do not destructure it while the describe is collected).
 */
export function useBuiltService(kind: TestDatabaseKind, options: BuiltServiceOptions = {}): BuiltService {
  // Registered first, so that its afterAll drops the database after the processes are gone.
  const database = useTestDatabase(kind);
  let entry: string | undefined;
  beforeAll(() => {
    entry = buildService();
  }, 120_000);
  if (!options.sharedAcrossTests) afterEach(() => killLeftovers());
  afterAll(() => killLeftovers());
  return {
    get entry() {
      if (entry === undefined) throw new Error('useBuiltService: the service is not built yet');
      return entry;
    },
    database,
  };
}

export interface RunningService {
  readonly baseUrl: string;
  readonly run: ProcessRun;
  /** Sends the signal (if still running) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a compiled service with node on an OS-chosen port and waits until it listens. */
export async function startService(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<RunningService> {
  const run = new ProcessRun(process.execPath, [entry], {
    cwd: ROOT,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env }),
  });
  const port = await run.waitForPort(timeoutMs);
  let stopping: Promise<number | null> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    run,
    stop: (signal = 'SIGTERM') => {
      stopping ??= (async () => {
        run.signal(signal);
        return (await run.waitForExit(30_000)).code;
      })();
      return stopping;
    },
  };
}

/**
 * Two instances of the built service on one MariaDB database (MySQL only), started before the
 * file's tests with `admin` as their admin and stopped after them: what a suite of several
 * instances drives. `env` adds to their environment, given the database's URL. The database too,
 * as `useBuiltService` gives it.
 */
export function useTwoInstances(
  admin: { user: string; password: string },
  env: (databaseUrl: string) => Record<string, string> = () => ({}),
): {
  readonly built: BuiltService;
  readonly services: RunningService[];
} {
  const built = useBuiltService('mysql', { sharedAcrossTests: true });
  const services: RunningService[] = [];
  beforeAll(async () => {
    const all = {
      DATABASE_URL: built.database.url,
      DB_MIGRATIONS_RUN: 'true',
      ADMIN_USERNAME: admin.user,
      ADMIN_PASSWORD: admin.password,
      ...env(built.database.url),
    };
    services.push(await startService(built.entry, all, 60_000));
    services.push(await startService(built.entry, all, 60_000));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
  });
  return { built, services };
}

/** useTwoInstances in test mode: the clock and the reset of a suite that drives several instances. */
export function useTwoTestModeInstances(admin: { user: string; password: string }): {
  readonly built: BuiltService;
  readonly services: RunningService[];
} {
  return useTwoInstances(admin, (url) => ({
    TEST_MODE: 'true',
    TEST_MODE_DATABASE: new URL(url).pathname.slice(1),
  }));
}
