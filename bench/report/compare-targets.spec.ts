import { describe, expect, it } from 'vitest';
import { type ComparedRow, compareVerdicts } from './compare-targets.js';

const ANCHOR = '61e279195a5625dd416c9697f1df04fc5ce58133';
const BEFORE = '4f65f6f0000000000000000000000000000000aa';

function row(workload: string, commit: string, rate: number, p99: number, anchor = false): ComparedRow {
  return { workload, commit, anchor, revision: commit === BEFORE, rate, p99 };
}

describe('compareVerdicts', () => {
  it('holds create to 1.10× 61e2791 with p99 ≤ 1.00×: a faster create with a longer tail fails', () => {
    const rows = [
      row('create', BEFORE, 1.01, 0.95),
      row('create', ANCHOR, 1.12, 1.05, true),
      row('delete', BEFORE, 1.0, 1.0),
      row('delete', ANCHOR, 1.1, 0.98, true),
    ];
    const lines = compareVerdicts(rows, 'sqlite');
    expect(lines).toContain('- **FAIL** issue 50, sqlite: create ≥ 1.10× 61e2791, p99 ≤ 1.00×: 1.12 (p99 1.05)');
    expect(lines).toContain('- **PASS** issue 50, sqlite: delete ≥ 1.10× 61e2791, p99 ≤ 1.00×: 1.10 (p99 0.98)');
    // The issue sets them on SQLite: a MySQL run shows the rule alone.
    expect(compareVerdicts(rows, 'mysql').filter((line) => line.includes('issue 50'))).toEqual([]);
  });

  it('fails the rule when now is slower than the build before or than the anchor, and names both', () => {
    const [create, get] = compareVerdicts(
      [
        row('create', BEFORE, 1.02, 1),
        row('create', ANCHOR, 0.99, 1, true),
        row('get', BEFORE, 1.0, 1),
        row('get', ANCHOR, 1.3, 1, true),
      ],
      'sqlite',
    );
    expect(create).toBe(
      '- **FAIL** create no slower than the build before nor its anchor (now ÷ it ≥ 1.00; ' +
        'the build before 4f65f6f: 1.02; its anchor 61e2791: 0.99)',
    );
    expect(get).toMatch(/^- \*\*PASS\*\* get no slower/);
  });

  it('judges the figure it shows: 0.996 is shown as 1.00 and meets ≥ 1.00, 0.994 is 0.99 and does not', () => {
    const [list, get] = compareVerdicts([row('list', BEFORE, 0.996, 1), row('get', BEFORE, 0.994, 1)], 'sqlite');
    expect(list).toMatch(/^- \*\*PASS\*\* list .*: 1\.00\)$/);
    expect(get).toMatch(/^- \*\*FAIL\*\* get .*: 0\.99\)$/);
  });

  it('says how to measure a target whose build this run did not compare, and leaves out workloads not run', () => {
    const lines = compareVerdicts([row('get', BEFORE, 1.05, 0.9), row('get', ANCHOR, 1.2, 0.9, true)], 'sqlite');
    expect(lines).toContain(
      '- not measured in this run: issue 50, sqlite: get ≥ 1.00× d7f5e52 (`npm run bench:compare -- d7f5e52 2 5 get` measures it)',
    );
    expect(lines.some((line) => line.includes('create') || line.includes('list'))).toBe(false);
  });

  it('a build that is both the build before and the anchor is named once as both', () => {
    const [line] = compareVerdicts(
      [{ workload: 'list', commit: ANCHOR, anchor: true, revision: true, rate: 0.97, p99: 1 }],
      'sqlite',
    );
    expect(line).toBe(
      '- **FAIL** list no slower than the build before nor its anchor (now ÷ it ≥ 1.00; ' +
        'the build before 61e2791, its anchor 61e2791: 0.97)',
    );
  });
});
