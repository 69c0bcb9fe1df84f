import { ifMatchSatisfied } from './entity-tags.js';

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
