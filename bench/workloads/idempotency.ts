/**
 * The idempotency module: what an Idempotency-Key costs a create. Runs of creates each with a new
 * key (a claim, then the kept response: two more writes) alternate with runs of the same creates
 * without one, on the same service, whenever `create` runs.
 */
import { create } from './special-events.js';
import type { BenchModule } from './workload.js';

export const IDEMPOTENCY = {
  workloads: [],
  alternations: [
    {
      when: create,
      plain: 'create without a key',
      variant: 'create with a new Idempotency-Key each',
      open: async () => ({
        plain: { workload: create },
        variant: { workload: create, prepare: async () => ({ idempotencyKeys: true }) },
      }),
    },
  ],
} satisfies BenchModule;
