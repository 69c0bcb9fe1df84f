/**
 * The V8 flags the service runs with, wherever it is started from (`npm start`, `node
 * dist/main.js`, the Docker image).
 *
 * Peak RSS under load is V8's young generation: left to itself, V8 grows it to 128 MiB (two
 * 64 MiB semi-spaces) on a 64-bit machine, while the service holds ~40 MiB. A bound on the
 * semi-space takes effect only when given before the heap is set up, that is on node's command
 * line or in NODE_OPTIONS: `v8.setFlagsFromString` at run time changes nothing (measured; the
 * figures are in docs/performance-history.md).
 *
 * 0: V8's own sizing. A bound buys memory with throughput: measured with `npm run bench:compare`
 * against the build before on a quiet machine, 4 MiB (peak RSS 195–199 MiB against 290–312) read
 * gets at 0.76 of it and creates at 0.87 (p99 3.6× and 1.2×), 16 MiB gets at 0.81 and creates at
 * 0.89, V8's own 0.97 and 0.93 (docs/performance-history.md). A deployment that needs the memory more
 * gives its own value on the command line or in NODE_OPTIONS, which wins.
 */
export const SEMI_SPACE_MIB = 0;

/** The flags main.ts sees to, each given by name and value. */
export const V8_FLAGS: readonly string[] = [`--max-semi-space-size=${SEMI_SPACE_MIB}`];

/**
 * Set in the environment of the relaunched process (and removed from it there): a second
 * relaunch would mean that node ignored the flags, and the process runs without them rather
 * than replacing itself forever.
 */
const RELAUNCHED = 'MUSEUM_V8_FLAGS_RELAUNCHED';

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

/** `--max-semi-space-size=16` and `--max_semi_space_size 16` name the same flag. */
function flagName(flag: string): string {
  return flag.replace(/=.*$/s, '').replaceAll('_', '-');
}

/**
 * The flags of `wanted` that neither node's command line (`execArgv`) nor NODE_OPTIONS names: a
 * value given by whoever started the process wins, `--max-semi-space-size=0` included (V8's own
 * sizing).
 */
export function missingV8Flags(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  wanted: readonly string[] = V8_FLAGS,
): string[] {
  const given = new Set([...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map(flagName));
  return wanted.filter((flag) => !given.has(flagName(flag)));
}

/**
 * When a flag of V8_FLAGS is missing, replaces this process with node run with it
 * (`process.execve`): the same pid, the same standard streams, the signals sent to it and its exit
 * code are the service's, and no parent process stays behind holding memory. It costs one more
 * start of node itself, before any of the service's modules is loaded. On a Node without
 * `process.execve` (before 22.15), or on a second pass, the service runs with V8's defaults.
 */
export function relaunchWithV8Flags(): void {
  if (process.env[RELAUNCHED] !== undefined) {
    delete process.env[RELAUNCHED];
    return;
  }
  const missing = missingV8Flags(process.execArgv, process.env.NODE_OPTIONS);
  // Node 22.15 and 23.11 added it; the project's @types/node does not know it yet.
  const { execve } = process as { execve?: Execve };
  if (missing.length === 0 || execve === undefined) return;
  execve.call(
    process,
    process.execPath,
    [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)],
    {
      ...process.env,
      [RELAUNCHED]: '1',
    },
  );
}
