import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { childEnv, killLeftovers, ProcessRun, ROOT } from './service-process.js';
import { useTestDatabase, type TestDatabase, type TestDatabaseKind } from './test-database.js';

/**
 * Compiles the service into `.test-build/<name>` (not `dist/`, which `npm start` rebuilds and
 * deletes, possibly while another test file runs it) and returns the entry point. The folder is
 * emptied first, so no file of a source since removed survives. Each caller uses its own name.
 * As `nest build` does, the files nest-cli.json lists as assets (the door page's) are copied too.
 */
export function buildService(name: string): string {
  const outDir = join(ROOT, '.test-build', name);
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', outDir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  for (const folder of assetFolders()) cpSync(join(ROOT, 'src', folder), join(outDir, folder), { recursive: true });
  return join(outDir, 'main.js');
}

/** The folders of nest-cli.json's assets (`door/page/*` is the folder `door/page`). */
function assetFolders(): string[] {
  const cli = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as {
    compilerOptions?: { assets?: (string | { include: string })[] };
  };
  return (cli.compilerOptions?.assets ?? []).map((asset) =>
    (typeof asset === 'string' ? asset : asset.include).replace(/\/\*.*$/, ''),
  );
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
 * into .test-build/<name> and a fresh database before all tests, every process still running
 * killed after each test (after all, with `sharedAcrossTests`) so that a failed test leaves no
 * service holding the database, then the database dropped. The handle's properties are there once
 * beforeAll has run (do not destructure it while the describe is collected).
 */
export function useBuiltService(name: string, kind: TestDatabaseKind, options: BuiltServiceOptions = {}): BuiltService {
  // Registered first, so that its afterAll drops the database after the processes are gone.
  const database = useTestDatabase(kind);
  let entry: string | undefined;
  beforeAll(() => {
    entry = buildService(name);
  }, 120_000);
  if (!options.sharedAcrossTests) afterEach(() => killLeftovers());
  afterAll(() => killLeftovers());
  return {
    get entry() {
      if (entry === undefined) throw new Error(`useBuiltService: ${name} is not built yet`);
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
