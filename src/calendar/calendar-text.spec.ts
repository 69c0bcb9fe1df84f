import { contentLine, CRLF, escapeText, foldedLines, foldLine, MAX_LINE_OCTETS } from './calendar-text.js';

/** RFC 5545's unfolding: every CRLF followed by one space or tab is removed. */
const unfold = (folded: string): string => folded.replace(/\r\n[ \t]/g, '');

const octets = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Each physical line of a folded line, checked: at most 75 octets, valid UTF-8 on its own. */
function physicalLines(folded: string): string[] {
  const lines = folded.split(CRLF);
  expect(lines.filter((line) => octets(line) > MAX_LINE_OCTETS)).toEqual([]);
  // A line that split a UTF-8 sequence would not survive a round trip through bytes on its own,
  // and one that split a surrogate pair would not be well-formed.
  expect(lines.filter((line) => Buffer.from(line, 'utf8').toString('utf8') !== line || !line.isWellFormed())).toEqual(
    [],
  );
  expect(lines.slice(1).filter((line) => !line.startsWith(' '))).toEqual([]);
  return lines;
}

describe('escapeText (RFC 5545, 3.3.11)', () => {
  it('escapes backslash, semicolon and comma with a backslash, and leaves colons and quotes', () => {
    expect(escapeText('a\\b;c,d:e"f')).toBe('a\\\\b\\;c\\,d:e"f');
    expect(escapeText('\\;,')).toBe('\\\\\\;\\,');
    expect(escapeText('C:\\new')).toBe('C:\\\\new');
  });

  it('writes every kind of line break as \\n, a CRLF as one', () => {
    expect(escapeText('one\r\ntwo\nthree\rfour')).toBe('one\\ntwo\\nthree\\nfour');
    expect(escapeText('\r\n\r\n')).toBe('\\n\\n');
    expect(escapeText('\n\r')).toBe('\\n\\n');
  });

  it('keeps tabs and drops the control characters TEXT cannot hold', () => {
    expect(escapeText('a\tb')).toBe('a\tb');
    expect(escapeText('a\u0000b\u0007c\u001bd\u007fe')).toBe('abcde');
  });

  it('leaves non-ASCII text as it is: emoji, combining marks, Arabic, Hebrew', () => {
    for (const text of ['🦕🦀🎶', 'Cafe\u0301 e\u0301te\u0301', 'متحف الفن', 'מוזיאון', '👩‍👩‍👧‍👦 🇫🇷']) {
      expect(escapeText(text)).toBe(text);
    }
  });

  it('escapes inside non-ASCII text', () => {
    expect(escapeText('متحف، الفن; שלום,\nעולם')).toBe('متحف، الفن\\; שלום\\,\\nעולם');
  });
});

describe('foldLine (RFC 5545, 3.1)', () => {
  it('leaves a line of exactly 75 octets whole, and folds one of 76', () => {
    const exact = `SUMMARY:${'x'.repeat(75 - 8)}`;
    expect(octets(exact)).toBe(75);
    expect(foldLine(exact)).toBe(exact);
    const over = `${exact}y`;
    expect(foldLine(over)).toBe(`${exact}${CRLF} y`);
  });

  it('fills continuation lines to 75 octets, the leading space included', () => {
    const line = 'x'.repeat(75 + 74 + 74 + 10);
    const lines = physicalLines(foldLine(line));
    expect(lines.map(octets)).toEqual([75, 75, 75, 11]);
    expect(unfold(foldLine(line))).toBe(line);
  });

  it('never splits a UTF-8 sequence: a 2-octet character that would cross the 75th octet moves down', () => {
    const line = `${'x'.repeat(74)}é${'x'.repeat(10)}`;
    const lines = physicalLines(foldLine(line));
    expect(lines[0]).toBe('x'.repeat(74));
    expect(lines[1]).toBe(` é${'x'.repeat(10)}`);
    // A 2-octet character that ends exactly on the 75th octet stays.
    const fits = `${'x'.repeat(73)}é${'x'.repeat(10)}`;
    expect(physicalLines(foldLine(fits))[0]).toBe(`${'x'.repeat(73)}é`);
  });

  it('never splits an emoji (4 octets, a surrogate pair in JavaScript)', () => {
    for (let prefix = 70; prefix <= 75; prefix++) {
      const line = `${'x'.repeat(prefix)}🦕🦕🦕${'y'.repeat(80)}`;
      const folded = foldLine(line);
      physicalLines(folded);
      expect(unfold(folded)).toBe(line);
    }
  });

  it('folds a line of emoji only, every line whole characters, and unfolds to the same text', () => {
    const line = `SUMMARY:${'🦕'.repeat(100)}`;
    const folded = foldLine(line);
    const lines = physicalLines(folded);
    // 8 octets of name, then 16 emoji (64 octets) fit the first line: 72, a 17th would make 76.
    expect(lines[0]).toBe(`SUMMARY:${'🦕'.repeat(16)}`);
    // After the space, 18 emoji: 73 octets.
    expect(lines[1]).toBe(` ${'🦕'.repeat(18)}`);
    expect(unfold(folded)).toBe(line);
  });

  it('keeps combining marks, right-to-left scripts and joined emoji intact through fold and unfold', () => {
    for (const text of [
      'e\u0301'.repeat(60),
      'متحف الفن الإسلامي '.repeat(10),
      'מוזיאון ישראל, ירושלים; '.repeat(8),
      '👩‍👩‍👧‍👦'.repeat(20),
      'a\u0308\u0301\u0323'.repeat(40),
    ]) {
      const line = `DESCRIPTION:${escapeText(text)}`;
      const folded = foldLine(line);
      physicalLines(folded);
      expect(unfold(folded)).toBe(line);
    }
  });

  it('folds 3-octet characters (Hebrew points, CJK) at the 75-octet boundary exactly', () => {
    // 24 characters of 3 octets after a 3-octet name: 75 octets, one line.
    const exact = `ABC${'中'.repeat(24)}`;
    expect(octets(exact)).toBe(75);
    expect(foldLine(exact)).toBe(exact);
    const lines = physicalLines(foldLine(`${exact}中`));
    expect(lines).toEqual([exact, ' 中']);
  });

  it('contentLine joins name and value and folds the result', () => {
    expect(contentLine('LOCATION', 'Hall 1')).toBe('LOCATION:Hall 1');
    const long = contentLine('LOCATION', 'z'.repeat(200));
    expect(unfold(long)).toBe(`LOCATION:${'z'.repeat(200)}`);
    physicalLines(long);
  });
});

describe('foldedLines (the octets of folded lines, written where they are kept)', () => {
  it('gives exactly the UTF-8 of foldLine for each line, each ended by CRLF, filling what `take` gave', () => {
    const lines = [
      'SUMMARY:',
      `SUMMARY:${'🦕'.repeat(100)}`,
      `LOCATION:${'x'.repeat(74)}é${'x'.repeat(10)}`,
      `DESCRIPTION:${escapeText('Dé\u0301jà vu; 恐竜, מוזיאון\n'.repeat(300))}`,
      // A lone surrogate: both become U+FFFD, 3 octets.
      `DESCRIPTION:${'a'.repeat(73)}\ud83e${'b'.repeat(80)}`,
      'e\u0301'.repeat(60),
      `X:${'中'.repeat(2000)}`,
    ];
    const given: number[] = [];
    const octetsOf = foldedLines(lines, (size) => {
      given.push(size);
      return Buffer.alloc(size, 0xff);
    });
    expect(octetsOf.equals(Buffer.from(lines.map((line) => `${foldLine(line)}${CRLF}`).join(''), 'utf8'))).toBe(true);
    expect(given).toEqual([octetsOf.length]);
    // Short lines after a long one: the octets kept between calls are not carried over.
    expect(foldedLines(['A:b'], (size) => Buffer.alloc(size)).toString()).toBe(`A:b${CRLF}`);
  });
});
