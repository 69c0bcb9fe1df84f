import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The garbage collector, for tests of what a piece of code keeps: `--expose-gc` set at run time
 * hands a new context its `gc`, without a flag on the test runner's command line.
 */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** The bytes of JavaScript heap still reachable now: after full collections, so no garbage counts. */
export function reachableHeapBytes(): number {
  const gc = collector();
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * A distinct flat string of `length` characters, decoded from bytes as each request decodes its
 * own header (`padEnd` or `repeat` would share their filler between strings, and hide a leak).
 */
export function freshText(length: number, tag: number): string {
  const bytes = Buffer.alloc(length, 'u');
  bytes.write(`${tag}:`);
  return bytes.toString('latin1');
}
