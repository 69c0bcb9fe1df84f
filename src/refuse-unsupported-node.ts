/**
 * Imported first by every entry point (main, the CLIs): on an unsupported Node the process stops
 * here with one line, before any dependency that needs a newer Node is evaluated.
 */
import { unsupportedNodeMessage } from './runtime-check.js';

const refusal = unsupportedNodeMessage(process.versions.node);
if (refusal !== null) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
