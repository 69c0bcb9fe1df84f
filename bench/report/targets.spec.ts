import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../measure/interleave.js';
import { loopHeldTarget } from './targets.js';

function run(loopHeldMs: number | undefined): RunRecord {
  return {
    phase: 'measured',
    reqPerSec: 1000,
    p50Ms: 1,
    p99Ms: 2,
    responses: 1000,
    statusCounts: { '200': 1000 },
    unexpected: 0,
    errors: 0,
    timeouts: 0,
    problems: [],
    ...(loopHeldMs === undefined ? {} : { loopHeldMs }),
  };
}

describe('loopHeldTarget (issue 50: no turn over 50 ms in every run)', () => {
  it('passes only when every run kept to the bound, and says in how many runs it held', () => {
    expect(loopHeldTarget('t', [run(40), run(50), run(12)], 50)).toEqual({
      name: 't',
      status: 'PASS',
      detail: '3 of 3 runs; held at most 40, 50, 12 ms',
    });
    expect(loopHeldTarget('t', [run(40), run(51), run(93)], 50)).toMatchObject({
      status: 'FAIL',
      detail: '1 of 3 runs; held at most 40, 51, 93 ms',
    });
  });

  it('is not measured when no run reported the loop', () => {
    expect(loopHeldTarget('t', [run(undefined)], 50)).toMatchObject({
      status: 'n/a',
      detail: 'not measured in this run',
    });
  });
});
