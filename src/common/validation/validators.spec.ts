import { EVENT_RULES } from '../../special-events/special-event.rules.js';
import { codePointLength, isRfc9562Uuid, numberProblem, stringListProblem, textProblem } from './validators.js';

const CRAB = '🦀'; // one code point, two UTF-16 units
const HEART = '❤️'; // U+2764 + U+FE0F (variation selector-16): two code points
const DATE_RULES = { maxItems: EVENT_RULES.datesMaxItems, itemMin: EVENT_RULES.dateMin, itemMax: EVENT_RULES.dateMax };

/** A valid UUID whose version nibble (index 14) and variant nibble (index 19) are replaced. */
function uuid(version: string, variant = '8'): string {
  return `0196a8f4-6e2b-${version}c3d-${variant}e4f-5a6b7c8d9e0f`;
}

describe('isRfc9562Uuid', () => {
  it.each(['1', '2', '3', '4', '5', '6', '7', '8'])('accepts version %s', (version) => {
    expect(isRfc9562Uuid(uuid(version))).toBe(true);
  });

  it.each(['8', '9', 'a', 'b', 'A', 'B'])('accepts the RFC variant nibble %s', (variant) => {
    expect(isRfc9562Uuid(uuid('4', variant))).toBe(true);
  });

  it('accepts the Nil and the Max UUID', () => {
    expect(isRfc9562Uuid('00000000-0000-0000-0000-000000000000')).toBe(true);
    expect(isRfc9562Uuid('ffffffff-ffff-ffff-ffff-ffffffffffff')).toBe(true);
    expect(isRfc9562Uuid('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF')).toBe(true);
  });

  it('accepts upper and mixed letter case', () => {
    expect(isRfc9562Uuid('DAD4BCE8-F5CB-4078-A211-995864315E39')).toBe(true);
    expect(isRfc9562Uuid('Dad4bCe8-f5Cb-4078-a211-995864315e39')).toBe(true);
  });

  it.each([
    ['version 0', uuid('0')],
    ['version 9', uuid('9')],
    ['version f', uuid('f')],
    ['NCS variant (0xxx)', uuid('4', '7')],
    ['NCS variant (0)', uuid('4', '0')],
    ['Microsoft variant (110x)', uuid('4', 'c')],
    ['reserved variant (111x)', uuid('4', 'e')],
    ['Nil-like with the RFC variant (version 0)', '00000000-0000-0000-8000-000000000000'],
    ['Max-like with version 4', 'ffffffff-ffff-4fff-ffff-ffffffffffff'],
    ['no hyphens', 'dad4bce8f5cb4078a211995864315e39'],
    ['hyphens misplaced', 'dad4bce8f-5cb-4078-a211-995864315e39'],
    ['braces', '{dad4bce8-f5cb-4078-a211-995864315e39}'],
    ['urn:uuid: prefix', 'urn:uuid:dad4bce8-f5cb-4078-a211-995864315e39'],
    ['trailing newline', 'dad4bce8-f5cb-4078-a211-995864315e39\n'],
    ['leading space', ' dad4bce8-f5cb-4078-a211-995864315e39'],
    ['a non-hex digit', 'dad4bce8-f5cb-4078-a211-995864315e3g'],
    ['one digit short', 'dad4bce8-f5cb-4078-a211-995864315e3'],
    ['one digit long', 'dad4bce8-f5cb-4078-a211-995864315e391'],
    ['empty string', ''],
  ])('rejects %s', (_label, value) => {
    expect(isRfc9562Uuid(value)).toBe(false);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 123],
    ['a String object', new String('dad4bce8-f5cb-4078-a211-995864315e39')],
    ['an array', ['dad4bce8-f5cb-4078-a211-995864315e39']],
    ['an object with toString', { toString: () => 'dad4bce8-f5cb-4078-a211-995864315e39' }],
  ])('rejects a non-string: %s', (_label, value) => {
    expect(isRfc9562Uuid(value)).toBe(false);
  });
});

describe('codePointLength', () => {
  it.each([
    ['empty', '', 0],
    ['ASCII', 'abc', 3],
    ['a surrogate pair', CRAB, 1],
    ['three surrogate pairs', CRAB.repeat(3), 3],
    ['a lone high surrogate', '\ud800', 1],
    ['a lone low surrogate', '\udc00', 1],
    ['low then high surrogate (not a pair)', '\udc00\ud800', 2],
    ['a high surrogate followed by a letter', '\ud83ea', 2],
    ['a high surrogate at the end', `a${CRAB}\ud83e`, 3],
    ['a variation selector', HEART, 2],
    ['a combining mark', 'e\u0301', 2],
    ['a ZWJ emoji sequence', '👩\u200d💻', 3],
  ])('counts %s', (_label, value, expected) => {
    expect(codePointLength(value)).toBe(expected);
  });

  it('agrees with the string iterator on well-formed text', () => {
    const text = `Under the seaaa ${CRAB} 🎶 🌊. ${HEART} שלום مرحبا e\u0301`;
    let codePoints = 0;
    for (const _codePoint of text) codePoints++;
    expect(codePointLength(text)).toBe(codePoints);
  });
});

describe('textProblem', () => {
  const VISIBLE = 'must contain visible characters, not only white space';

  it.each([
    ['a number', 25],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', true],
    ['an array', ['a']],
    ['an object', { value: 'a' }],
  ])('rejects %s as not a string', (_label, value) => {
    expect(textProblem(value, 200)).toBe('must be a string');
  });

  it('rejects the empty string with its length', () => {
    expect(textProblem('', 200)).toBe('must be 1 to 200 characters long (it has 0)');
  });

  it.each([
    ['spaces', '   '],
    ['no-break space', '\u00a0'],
    ['em space', '\u2003'],
    ['tab and newline', '\t\n'],
    ['ideographic space', '\u3000'],
    ['mixed white space', ' \u00a0\u2003\t\r\n'],
  ])('rejects white space only: %s', (_label, value) => {
    expect(textProblem(value, 200)).toBe(VISIBLE);
  });

  it.each([
    ['zero-width space', '\u200b'],
    ['zero-width joiner', '\u200d'],
    ['zero-width space and joiner', '\u200b\u200d'],
    ['byte-order mark', '\ufeff'],
    ['right-to-left mark', '\u200f'],
    ['format and white space', ' \u200b \u2060 '],
  ])('rejects format characters only: %s', (_label, value) => {
    expect(textProblem(value, 200)).toBe(VISIBLE);
  });

  it.each([
    ['NUL', '\u0000'],
    ['controls', '\u0001\u001b\u007f'],
    ['C1 controls', '\u0085\u009f'],
  ])('rejects control characters only: %s', (_label, value) => {
    expect(textProblem(value, 200)).toBe(VISIBLE);
  });

  it.each([
    ['a lone high surrogate', 'abc\ud800'],
    ['a lone low surrogate', '\udc00abc'],
    ['reversed surrogates', 'a\udc00\ud800b'],
  ])('rejects %s', (_label, value) => {
    expect(textProblem(value, 200)).toBe('must be well-formed Unicode (no unpaired surrogates)');
  });

  it.each([
    ['a single letter', 'a'],
    ['text surrounded by white space', '  a  '],
    ['an emoji', CRAB],
    ['a right-to-left script', 'שלום'],
    ['a combining mark on a letter', 'e\u0301'],
    ['a visible character between zero-width ones', '\u200bx\u200d'],
  ])('accepts %s', (_label, value) => {
    expect(textProblem(value, 200)).toBeNull();
  });

  it('accepts exactly max code points and rejects max + 1', () => {
    expect(textProblem('a'.repeat(200), 200)).toBeNull();
    expect(textProblem('a'.repeat(201), 200)).toBe('must be 1 to 200 characters long (it has 201)');
    expect(textProblem('a'.repeat(5000), EVENT_RULES.descriptionMax)).toBeNull();
    expect(textProblem('a'.repeat(5001), EVENT_RULES.descriptionMax)).toBe(
      'must be 1 to 5000 characters long (it has 5001)',
    );
  });

  it('counts a surrogate pair as one: 200 crabs (400 UTF-16 units) fit in 200', () => {
    expect(textProblem(CRAB.repeat(200), 200)).toBeNull();
    expect(textProblem(CRAB.repeat(201), 200)).toBe('must be 1 to 200 characters long (it has 201)');
  });

  it('counts variation selectors: 100 hearts are 200 code points, 101 are too many', () => {
    expect(textProblem(HEART.repeat(100), 200)).toBeNull();
    expect(textProblem(HEART.repeat(101), 200)).toBe('must be 1 to 200 characters long (it has 202)');
  });

  it('uses the given minimum and may skip the visibility rule', () => {
    expect(textProblem('ab', 10, 3)).toBe('must be 3 to 10 characters long (it has 2)');
    expect(textProblem(' ', 10, 1, false)).toBeNull();
    expect(textProblem('', 10, 1, false)).toBe('must be 1 to 10 characters long (it has 0)');
  });
});

describe('stringListProblem', () => {
  it.each([
    ['a string', '2025-09-05'],
    ['null', null],
    ['undefined', undefined],
    ['an object', { 0: '2025-09-05', length: 1 }],
    ['a number', 5],
  ])('rejects %s as not an array', (_label, value) => {
    expect(stringListProblem(value, DATE_RULES)).toBe('must be an array of strings');
  });

  it('accepts an empty array', () => {
    expect(stringListProblem([], DATE_RULES)).toBeNull();
  });

  it('accepts 500 items and rejects 501', () => {
    expect(
      stringListProblem(
        Array.from({ length: 500 }, () => '2025-09-05'),
        DATE_RULES,
      ),
    ).toBeNull();
    expect(
      stringListProblem(
        Array.from({ length: 501 }, () => '2025-09-05'),
        DATE_RULES,
      ),
    ).toBe('must have at most 500 items (it has 501)');
  });

  it('accepts items of 1 and 64 code points (surrogate pairs count once) and rejects 65', () => {
    expect(stringListProblem(['x', 'a'.repeat(64), CRAB.repeat(64)], DATE_RULES)).toBeNull();
    expect(stringListProblem(['2025-09-05', 'a'.repeat(65)], DATE_RULES)).toBe(
      'item 1 must be 1 to 64 characters long (it has 65)',
    );
  });

  it('rejects an empty item, naming its index', () => {
    expect(stringListProblem(['2025-09-05', ''], DATE_RULES)).toBe('item 1 must be 1 to 64 characters long (it has 0)');
  });

  it.each([
    ['a number', 20250905],
    ['null', null],
    ['an array', ['2025-09-05']],
    ['an object', { date: '2025-09-05' }],
  ])('rejects %s as an item, naming its index', (_label, item) => {
    expect(stringListProblem(['2025-09-05', '2025-09-06', item], DATE_RULES)).toBe('item 2 must be a string');
  });

  it('rejects an item with a lone surrogate', () => {
    expect(stringListProblem(['\ud800'], DATE_RULES)).toBe(
      'item 0 must be well-formed Unicode (no unpaired surrogates)',
    );
  });

  it('names every failing index in one message', () => {
    expect(stringListProblem(['', '2025-09-05', 7, 'a'.repeat(65)], DATE_RULES)).toBe(
      'item 0 must be 1 to 64 characters long (it has 0); item 2 must be a string; item 3 must be 1 to 64 characters long (it has 65)',
    );
  });

  it('keeps the message short when many items fail', () => {
    const problem = stringListProblem(
      Array.from({ length: 400 }, () => 1),
      DATE_RULES,
    );
    expect(problem?.split('; ')).toEqual([0, 1, 2, 3, 4].map((i) => `item ${i} must be a string`));
  });
});

describe('numberProblem', () => {
  const MAX = EVENT_RULES.priceMax;
  const NOT_A_NUMBER = 'must be a finite JSON number';
  const OUT_OF_RANGE = 'must be from 0 to 1000000000';

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['the string "25"', '25'],
    ['the string "0"', '0'],
    ['an empty string', ''],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', true],
    ['a bigint', 25n],
    ['a Number object', new Number(25)],
    ['an array holding a number', [25]],
  ])('rejects %s as not a finite number', (_label, value) => {
    expect(numberProblem(value, 0, MAX)).toBe(NOT_A_NUMBER);
  });

  it.each([
    ['-0.01', -0.01],
    ['-1', -1],
    ['1e9 + 1', 1e9 + 1],
    ['1e9 + 0.5', 1e9 + 0.5],
    ['Number.MAX_VALUE', Number.MAX_VALUE],
  ])('rejects %s as out of range', (_label, value) => {
    expect(numberProblem(value, 0, MAX)).toBe(OUT_OF_RANGE);
  });

  it.each([
    ['0', 0],
    ['-0', -0],
    ['the smallest positive double', Number.MIN_VALUE],
    ['19.99', 19.99],
    ['1e9', 1e9],
  ])('accepts %s', (_label, value) => {
    expect(numberProblem(value, 0, MAX)).toBeNull();
  });
});
