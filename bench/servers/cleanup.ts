/**
 * Everything the benchmark must undo (child processes, MySQL databases, temp dirs), run in
 * reverse order from the entry points' `finally` and on SIGINT/SIGTERM (cleanUpOnSignals).
 */
import { errorText } from './http.js';

type Task = () => Promise<void> | void;

const tasks: Array<{ readonly label: string; readonly task: Task }> = [];
let running: Promise<void> | undefined;

/** Registers a clean-up; the returned function runs it now (once) and unregisters it. */
export function onCleanup(label: string, task: Task): () => Promise<void> {
  const entry = { label, task };
  tasks.push(entry);
  let done: Promise<void> | undefined;
  return () => {
    done ??= (async () => {
      const index = tasks.indexOf(entry);
      if (index >= 0) tasks.splice(index, 1);
      await task();
    })();
    return done;
  };
}

/** Runs every registered clean-up, last registered first; failures are reported, not thrown. */
export function runCleanup(): Promise<void> {
  running ??= (async () => {
    while (tasks.length > 0) {
      const entry = tasks.pop();
      if (!entry) break;
      try {
        await entry.task();
      } catch (error) {
        process.stderr.write(`clean-up "${entry.label}" failed: ${errorText(error)}\n`);
      }
    }
  })();
  return running;
}

/** On the first SIGINT or SIGTERM: every clean-up, then exit 130 or 143. */
export function cleanUpOnSignals(): void {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\n# ${signal}: stopping every server, dropping MySQL databases, removing temp files\n`);
    void runCleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
