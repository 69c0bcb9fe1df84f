/**
 * Price categories (adult, child, …): a list of prices by category beside a base price, the price
 * of a ticket bought with no category. A special event carries its own list; general admission
 * has one of its own beside GENERAL_ADMISSION_PRICE. The rules and the lookup live here, once,
 * for every feature that sells or lists them.
 */

/** One category's price. */
export interface CategoryPrice {
  readonly category: string;
  readonly price: number;
}

/** The limits of a price list: entries, and a category's length in Unicode code points. */
export const PRICE_LIST_RULES = {
  maxEntries: 20,
  categoryMin: 1,
  categoryMax: 40,
} as const;

/** The price a ticket is sold at, or why it is not sold (the category names none of the list). */
export type PriceOutcome =
  | { readonly kind: 'priced'; readonly category: string | null; readonly price: number }
  | { readonly kind: 'unknown-category'; readonly category: string; readonly categories: readonly string[] };

/**
 * The price of a ticket bought in `category` of a list whose base price (no category) is `price`:
 * with no category, the base price; with one, its entry's price, or a refusal that names the
 * categories there are (none, for a list without entries). Categories are compared exactly.
 */
export function priceIn(
  price: number,
  prices: readonly CategoryPrice[] | null,
  category: string | null | undefined,
): PriceOutcome {
  if (category === undefined || category === null) return { kind: 'priced', category: null, price };
  const entry = prices?.find((candidate) => candidate.category === category);
  if (entry !== undefined) return { kind: 'priced', category, price: entry.price };
  return { kind: 'unknown-category', category, categories: (prices ?? []).map((candidate) => candidate.category) };
}

/** A string's length in Unicode code points (a surrogate pair is one), the unit MySQL's VARCHAR counts. */
function codePoints(value: string): number {
  return value.length - (value.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/** Something a reader can see: not only white space, control or format characters. */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}]/u;

/**
 * Why `value` is not an acceptable price list, or null when it is: an array of at most
 * PRICE_LIST_RULES.maxEntries objects with exactly `category` (1 to 40 code points, visible, no
 * white space at either end) and
 * `price` (a finite JSON number from `min` to `max`), each category once. The message names the
 * item, so that a client sees which entry to fix.
 */
export function priceListProblem(value: unknown, range: { readonly min: number; readonly max: number }): string | null {
  if (!Array.isArray(value)) return 'must be an array of {"category", "price"} objects';
  const { maxEntries, categoryMin, categoryMax } = PRICE_LIST_RULES;
  if (value.length > maxEntries) return `must have at most ${maxEntries} entries (it has ${value.length})`;
  const failures: string[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < value.length && failures.length < 5; i++) {
    const problem = entryProblem(value[i], range, categoryMin, categoryMax);
    if (problem !== null) {
      failures.push(`item ${i} ${problem}`);
      continue;
    }
    const { category } = value[i] as CategoryPrice;
    const first = seen.get(category);
    if (first !== undefined) failures.push(`item ${i} repeats the category "${category}" of item ${first}`);
    else seen.set(category, i);
  }
  return failures.length === 0 ? null : failures.join('; ');
}

function entryProblem(
  entry: unknown,
  range: { readonly min: number; readonly max: number },
  categoryMin: number,
  categoryMax: number,
): string | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return 'must be an object {"category", "price"}';
  }
  const extra = Object.keys(entry).filter((key) => key !== 'category' && key !== 'price');
  if (extra.length > 0) return `has unknown properties: ${extra.join(', ')} (only category and price)`;
  const { category, price } = entry as Record<string, unknown>;
  if (typeof category !== 'string') return 'category must be a string';
  if (!category.isWellFormed()) return 'category must be well-formed Unicode (no unpaired surrogates)';
  const length = codePoints(category);
  if (length < categoryMin || length > categoryMax) {
    return `category must be ${categoryMin} to ${categoryMax} characters long (it has ${length})`;
  }
  if (!VISIBLE.test(category)) return 'category must contain visible characters, not only white space';
  // MySQL's PAD SPACE collations would take "adult " for "adult": such a pair is never stored.
  if (/^\s|\s$/u.test(category)) return 'category must not begin or end with white space';
  if (typeof price !== 'number' || !Number.isFinite(price)) return 'price must be a finite JSON number';
  if (price < range.min || price > range.max) return `price must be from ${range.min} to ${range.max}`;
  return null;
}

/** A valid list as stored and answered: each entry's two fields only, in the order given; none is null. */
export function storedPriceList(value: readonly CategoryPrice[] | null | undefined): CategoryPrice[] | null {
  if (value === null || value === undefined || value.length === 0) return null;
  return value.map(({ category, price }) => ({ category, price }));
}

/**
 * A price list's JSON Schema (plain data, for the OpenAPI descriptions of every feature that takes
 * or shows one), with prices from `min` to `max`.
 */
export function priceListSchema(range: { readonly min: number; readonly max: number }): {
  type: 'array';
  maxItems: number;
  items: Record<string, unknown>;
  example: CategoryPrice[];
} {
  return {
    type: 'array',
    maxItems: PRICE_LIST_RULES.maxEntries,
    items: {
      type: 'object',
      required: ['category', 'price'],
      additionalProperties: false,
      properties: {
        category: {
          type: 'string',
          minLength: PRICE_LIST_RULES.categoryMin,
          maxLength: PRICE_LIST_RULES.categoryMax,
          description: 'Unique within the list; compared exactly (letter case included).',
          example: 'adult',
        },
        price: { type: 'number', format: 'double', minimum: range.min, maximum: range.max, example: 20 },
      },
    },
    example: [
      { category: 'adult', price: 20 },
      { category: 'child', price: 0 },
    ],
  };
}
