/**
 * The Node.js releases the service runs on. `npm start`, `npm test` and every `npm run` use the
 * Node 24 that `npm ci` installs (docs/deployment.md, "Which Node runs the service"); this check
 * is for the paths that bypass npm, such as `node dist/main.js` on a machine whose own Node is 20.
 */
export const SUPPORTED_NODE = 'Node.js 22.12 or later (24 LTS recommended)';

/** One line naming the supported versions when `version` (process.versions.node) is too old, else null. */
export function unsupportedNodeMessage(version: string): string | null {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major > 22 || (major === 22 && minor >= 12)) return null;
  return (
    `museum-special-events needs ${SUPPORTED_NODE}; this is Node.js ${version}. ` +
    'Run it through npm (`npm start` uses the Node 24 that `npm ci` installed) or install Node 24.'
  );
}
