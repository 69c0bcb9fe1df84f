import { describe, expect, it } from 'vitest';
import { missingV8Flags, SEMI_SPACE_MIB, V8_FLAGS } from './v8-flags.js';

describe('missingV8Flags', () => {
  it('asks for the semi-space bound when nothing names it', () => {
    expect(V8_FLAGS).toEqual([`--max-semi-space-size=${SEMI_SPACE_MIB}`]);
    expect(missingV8Flags([], undefined)).toEqual(V8_FLAGS);
    expect(missingV8Flags(['--import', 'x.js', '--expose-gc'], '--enable-source-maps')).toEqual(V8_FLAGS);
  });

  it('leaves a value given on the command line or in NODE_OPTIONS, in either spelling, as it is', () => {
    expect(missingV8Flags(['--max-semi-space-size=0'], undefined)).toEqual([]);
    expect(missingV8Flags(['--max_semi_space_size=32'], undefined)).toEqual([]);
    expect(missingV8Flags([], '--enable-source-maps  --max-semi-space-size=2')).toEqual([]);
  });

  it('does not take a longer flag for the one it wants', () => {
    expect(missingV8Flags(['--max-semi-space-size-extra=1', '--min-semi-space-size=1'], undefined)).toEqual(V8_FLAGS);
  });
});
