import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: true,
    root: './',
    // Unit specs live beside the code; e2e specs in test/.
    include: ['src/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    // Password hashing (scrypt, ~0.3 s each) and real databases make some tests slow.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: running every file at once makes scrypt-bound tests time out.
    maxWorkers: 2,
  },
});
