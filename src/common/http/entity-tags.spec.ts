import { ifMatchSatisfied, ifNoneMatchFound } from './entity-tags.js';

describe('ifMatchSatisfied', () => {
  it('matches the current tag, alone or in a list, and * always', () => {
    expect(ifMatchSatisfied('"abc"', '"abc"')).toBe(true);
    expect(ifMatchSatisfied('"x", "abc"', '"abc"')).toBe(true);
    expect(ifMatchSatisfied(' * ', '"abc"')).toBe(true);
  });

  it('never matches a stale tag, a weak tag or a malformed header', () => {
    expect(ifMatchSatisfied('"abd"', '"abc"')).toBe(false);
    expect(ifMatchSatisfied('W/"abc"', '"abc"')).toBe(false);
    expect(ifMatchSatisfied('abc', '"abc"')).toBe(false);
    expect(ifMatchSatisfied('', '"abc"')).toBe(false);
  });
});

describe('ifNoneMatchFound', () => {
  it('finds the current tag compared weakly, alone or in a list, and * always', () => {
    expect(ifNoneMatchFound('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchFound('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchFound('"x",W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchFound('*', '"abc"')).toBe(true);
  });

  it('does not find another tag or a malformed one', () => {
    expect(ifNoneMatchFound('"abd"', '"abc"')).toBe(false);
    expect(ifNoneMatchFound('abc', '"abc"')).toBe(false);
    expect(ifNoneMatchFound('W/abc', '"abc"')).toBe(false);
  });
});
