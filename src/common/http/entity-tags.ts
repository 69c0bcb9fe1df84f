/**
 * Entity-tag conditions (RFC 9110 §13.1.1, §13.1.2, §8.8.3): `*`, or a comma-separated list of
 * tags, each `"opaque"` or `W/"opaque"`.
 */
const ENTITY_TAG = /(W\/)?"[\x21\x23-\x7e\x80-\xff]*"/g;

function tagsOf(header: string): { weak: boolean; tag: string }[] {
  return [...header.matchAll(ENTITY_TAG)].map((match) => ({
    weak: match[1] !== undefined,
    tag: match[0].slice(match[1] ? 2 : 0),
  }));
}

/**
 * If-Match: true when `current` (a strong tag) satisfies the header. `*` matches any current
 * representation; listed tags compare strongly, so a weak tag never matches.
 */
export function ifMatchSatisfied(header: string, current: string): boolean {
  if (header.trim() === '*') return true;
  return tagsOf(header).some(({ weak, tag }) => !weak && tag === current);
}

/**
 * If-None-Match: true when the header names `current` (weak comparison: `W/` ignored) or is `*`,
 * i.e. the client's copy is current (304 for GET and HEAD).
 */
export function ifNoneMatchFound(header: string, current: string): boolean {
  if (header.trim() === '*') return true;
  return tagsOf(header).some(({ tag }) => tag === current);
}
