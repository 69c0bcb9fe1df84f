import { etagOf, preconditionOf } from './special-events.responses.js';

const WITHOUT_CAPACITY = { version: 36 * 36 + 3, capacity: null, ticketsSold: 0 };
const WITH_CAPACITY = { version: 36 * 36 + 3, capacity: 10, ticketsSold: 37 };

describe('etagOf', () => {
  it('names the version in base 36, and the tickets sold of an event with a capacity', () => {
    expect(etagOf(WITHOUT_CAPACITY)).toBe('"103"');
    expect(etagOf(WITH_CAPACITY)).toBe('"103-11"');
  });
});

describe('preconditionOf', () => {
  it('makes no condition of absent or blank headers, nor of If-Match *', () => {
    for (const blank of [undefined, '', '  ']) expect(preconditionOf(blank, blank)).toEqual({});
    expect(preconditionOf('*')).toEqual({});
    expect(preconditionOf(' * ')).toEqual({});
  });

  it('If-Match: the current tag, strongly compared, among those listed', () => {
    const { matches, excludes } = preconditionOf('"x", "103-11"');
    expect(excludes).toBeUndefined();
    expect(matches?.(WITH_CAPACITY)).toBe(true);
    expect(matches?.({ ...WITH_CAPACITY, ticketsSold: 38 })).toBe(false);
    expect(matches?.(WITHOUT_CAPACITY)).toBe(false);
    expect(preconditionOf('W/"103"').matches?.(WITHOUT_CAPACITY)).toBe(false);
  });

  it('If-None-Match: the current tag, weakly compared, or * for any event', () => {
    const { matches, excludes } = preconditionOf(undefined, 'W/"103"');
    expect(matches).toBeUndefined();
    expect(excludes?.(WITHOUT_CAPACITY)).toBe(true);
    expect(excludes?.(WITH_CAPACITY)).toBe(false);
    expect(preconditionOf(undefined, '*').excludes?.(WITH_CAPACITY)).toBe(true);
  });
});
