import { describe, expect, it } from 'vitest';
import { unsupportedNodeMessage } from './runtime-check.js';

describe('unsupportedNodeMessage', () => {
  it.each(['22.12.0', '22.20.1', '23.0.0', '24.0.0', '24.21.0', '26.1.0'])('accepts Node %s', (version) => {
    expect(unsupportedNodeMessage(version)).toBeNull();
  });

  it.each(['20.20.2', '20.19.0', '18.20.8', '22.11.0', '22.0.0', '21.7.3'])(
    'refuses Node %s in one line naming the supported versions',
    (version) => {
      const message = unsupportedNodeMessage(version);
      expect(message).toContain('Node.js 22.12 or later (24 LTS recommended)');
      expect(message).toContain(`this is Node.js ${version}`);
      expect(message).not.toContain('\n');
    },
  );
});
