/**
 * JSON with every object's members sorted by name (UTF-16 code units, as RFC 8785 sorts them),
 * arrays in their order: two bodies that parse to the same value give the same text, whatever the
 * order of their members or their whitespace. Numbers are written as JSON.stringify writes them,
 * so `1.0` and `1` agree too.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const name of Object.keys(record).sort()) {
    const member = record[name];
    // As JSON.stringify does: a member whose value JSON cannot hold is left out.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    members.push(`${JSON.stringify(name)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}
