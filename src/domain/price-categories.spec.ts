import { describe, expect, it } from 'vitest';
import { priceIn, priceListProblem, storedPriceList } from './price-categories.js';

const RANGE = { min: 0, max: 1_000_000_000 };
const LIST = [
  { category: 'adult', price: 20 },
  { category: 'child', price: 0 },
];

describe('priceIn', () => {
  it('prices a ticket with no category at the base price, whatever the list', () => {
    expect(priceIn(25, LIST, undefined)).toEqual({ kind: 'priced', category: null, price: 25 });
    expect(priceIn(25, null, null)).toEqual({ kind: 'priced', category: null, price: 25 });
  });

  it("prices a category at its entry's price, 0 included", () => {
    expect(priceIn(25, LIST, 'adult')).toEqual({ kind: 'priced', category: 'adult', price: 20 });
    expect(priceIn(25, LIST, 'child')).toEqual({ kind: 'priced', category: 'child', price: 0 });
  });

  it('refuses an unknown category (letter case counts), naming the categories there are', () => {
    expect(priceIn(25, LIST, 'Adult')).toEqual({
      kind: 'unknown-category',
      category: 'Adult',
      categories: ['adult', 'child'],
    });
    expect(priceIn(25, null, 'adult')).toEqual({ kind: 'unknown-category', category: 'adult', categories: [] });
  });
});

describe('priceListProblem', () => {
  it('takes [] and a list of 20 with categories of 40 code points (an emoji is one)', () => {
    expect(priceListProblem([], RANGE)).toBeNull();
    const list = Array.from({ length: 20 }, (_, i) => ({
      category: `${'🎟'.repeat(38)}${i}`.padEnd(40, 'x'),
      price: i,
    }));
    expect(priceListProblem(list, RANGE)).toBeNull();
    expect(priceListProblem([{ category: '🎟'.repeat(40), price: 1 }], RANGE)).toBeNull();
    expect(priceListProblem([{ category: '🎟'.repeat(41), price: 1 }], RANGE)).toBe(
      'item 0 category must be 1 to 40 characters long (it has 41)',
    );
  });

  it('names each entry at fault, up to five', () => {
    const list = [
      { category: 'adult', price: -1 },
      { category: 'adult', price: 1 },
      { category: 'child', price: 1 },
      { category: 'child', price: 2 },
    ];
    expect(priceListProblem(list, RANGE)).toBe(
      'item 0 price must be from 0 to 1000000000; item 3 repeats the category "child" of item 2',
    );
    expect(
      priceListProblem(
        Array.from({ length: 8 }, () => 'x'),
        RANGE,
      )?.split('; '),
    ).toHaveLength(5);
  });

  it('refuses what is not a list, 21 entries, and malformed entries', () => {
    expect(priceListProblem({}, RANGE)).toBe('must be an array of {"category", "price"} objects');
    expect(
      priceListProblem(
        Array.from({ length: 21 }, (_, i) => ({ category: `${i}`, price: 1 })),
        RANGE,
      ),
    ).toBe('must have at most 20 entries (it has 21)');
    expect(priceListProblem([null], RANGE)).toBe('item 0 must be an object {"category", "price"}');
    expect(priceListProblem([{ category: 'a', price: Number.NaN }], RANGE)).toBe(
      'item 0 price must be a finite JSON number',
    );
    expect(priceListProblem([{ category: ' a', price: 1 }], RANGE)).toBe(
      'item 0 category must not begin or end with white space',
    );
    expect(priceListProblem([{ category: '\u200b', price: 1 }], RANGE)).toBe(
      'item 0 category must contain visible characters, not only white space',
    );
  });
});

describe('storedPriceList', () => {
  it('stores none for absent, null and [], and each entry with its two fields', () => {
    expect(storedPriceList(undefined)).toBeNull();
    expect(storedPriceList(null)).toBeNull();
    expect(storedPriceList([])).toBeNull();
    expect(storedPriceList(LIST)).toEqual(LIST);
  });
});
