import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('gives members reordered at any depth the same text', () => {
    const a = JSON.parse('{"name":"A","dates":["2030-01-02","2030-01-01"],"x":{"b":1,"a":[{"d":2,"c":3}]}}') as unknown;
    const b = JSON.parse(
      '{ "x": { "a": [ { "c": 3, "d": 2 } ], "b": 1.0 }, "dates": ["2030-01-02","2030-01-01"], "name": "A" }',
    ) as unknown;
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"dates":["2030-01-02","2030-01-01"],"name":"A","x":{"a":[{"c":3,"d":2}],"b":1}}');
  });

  it('keeps what makes two bodies different: array order, values, types, names', () => {
    const text = (json: string) => canonicalJson(JSON.parse(json) as unknown);
    expect(text('{"d":["a","b"]}')).not.toBe(text('{"d":["b","a"]}'));
    expect(text('{"price":1}')).not.toBe(text('{"price":"1"}'));
    expect(text('{"a":null}')).not.toBe(text('{}'));
    expect(text('{"a":1}')).not.toBe(text('{"A":1}'));
    expect(text('{"__proto__":{"x":1}}')).toBe('{"__proto__":{"x":1}}');
    expect(text('"é\\u2028"')).toBe(JSON.stringify('é\u2028'));
  });

  it('writes what JSON.stringify writes for scalars, and null for no body', () => {
    for (const value of [0, -1.5, 1e21, true, false, 'text', null])
      expect(canonicalJson(value)).toBe(JSON.stringify(value));
    expect(canonicalJson(undefined)).toBe('null');
  });
});
