/**
 * RFC 5545's content lines: TEXT values escaped (3.3.11) and lines folded (3.1), so that any text
 * validation accepts (emoji, combining marks, right-to-left scripts, commas, newlines) reaches a
 * calendar application exactly as stored.
 */

/** The most octets of a content line, its line break excluded (RFC 5545, 3.1). */
export const MAX_LINE_OCTETS = 75;

export const CRLF = '\r\n';

/**
 * Backslash, semicolon and comma take a backslash; every line break (CRLF, LF or CR) becomes `\n`.
 * Control characters other than tab cannot appear in a TEXT value at all (TSAFE-CHAR excludes
 * CONTROL), and have no escape: they are left out.
 */
// oxlint-disable-next-line no-control-regex -- RFC 5545's CONTROL characters are what it finds
const TO_ESCAPE = /\r\n|[\r\n\\;,]|[\u0000-\u0008\u000b-\u001f\u007f]/g;

export function escapeText(value: string): string {
  return value.replace(TO_ESCAPE, (found) => {
    if (found === '\\' || found === ';' || found === ',') return `\\${found}`;
    if (found === '\r\n' || found === '\r' || found === '\n') return '\\n';
    return '';
  });
}

/**
 * The line folded to lines of at most 75 octets: a break (CRLF) and one space before each
 * continuation, the space counted in its line's 75. Breaks fall between code points, so neither a
 * UTF-8 sequence nor a UTF-16 surrogate pair is ever split; unfolding (removing every CRLF and the
 * space after it) gives the line back exactly. A combining mark may start a continuation line:
 * it is a character of its own, and the unfolded text is the same. The cuts are found in the
 * UTF-8 bytes (a cut moves back over continuation bytes, 10xxxxxx), not character by character:
 * a 5,000-character description is folded in microseconds.
 */
export function foldLine(line: string): string {
  if (line.length * 3 <= MAX_LINE_OCTETS) return line;
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= MAX_LINE_OCTETS) return line;
  const lines: string[] = [];
  let start = 0;
  for (const cut of foldCuts(bytes, bytes.length)) {
    lines.push(bytes.toString('utf8', start, cut));
    start = cut;
  }
  lines.push(bytes.toString('utf8', start));
  return lines.join(`${CRLF} `);
}

/** Where foldLine breaks the first `length` octets of `bytes` (UTF-8): each a continuation's first octet. */
function foldCuts(bytes: Buffer, length: number): number[] {
  const cuts: number[] = [];
  let start = 0;
  let room = MAX_LINE_OCTETS;
  while (length - start > room) {
    let end = start + room;
    while ((bytes[end] & 0xc0) === 0x80) end--;
    cuts.push(end);
    start = end;
    room = MAX_LINE_OCTETS - 1;
  }
  return cuts;
}

/** Where the octets of foldedLines are gathered before they are copied out: reused, so it grows once. */
let encoded = Buffer.allocUnsafe(16 * 1024);
let folded = Buffer.allocUnsafe(16 * 1024);

/**
 * The lines, each folded as foldLine folds it and ended by CRLF, as UTF-8 octets: written into the
 * Buffer `take` gives for their exact size (a slab's view), with no string made on the way.
 */
export function foldedLines(lines: readonly string[], take: (octets: number) => Buffer): Buffer {
  let at = 0;
  for (const line of lines) {
    // Each UTF-16 unit is at most 3 octets (a lone surrogate becomes U+FFFD, 3 octets).
    const most = line.length * 3;
    if (encoded.length < most) encoded = Buffer.allocUnsafe(most);
    const length = encoded.write(line, 0, 'utf8');
    const cuts = foldCuts(encoded, length);
    const size = length + 3 * cuts.length + 2;
    if (folded.length < at + size) {
      const larger = Buffer.allocUnsafe(Math.max(2 * folded.length, at + size));
      folded.copy(larger, 0, 0, at);
      folded = larger;
    }
    let from = 0;
    for (const cut of cuts) {
      at += encoded.copy(folded, at, from, cut);
      at += folded.write(`${CRLF} `, at, 'latin1');
      from = cut;
    }
    at += encoded.copy(folded, at, from, length);
    at += folded.write(CRLF, at, 'latin1');
  }
  const out = take(at);
  folded.copy(out, 0, 0, at);
  return out;
}

/** `NAME:value` (or `NAME;PARAM=…:value`), folded; the value as given (escape TEXT first). */
export function contentLine(name: string, value: string): string {
  return foldLine(`${name}:${value}`);
}
