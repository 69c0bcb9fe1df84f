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

/** Octets of one code point in UTF-8 (a lone surrogate, which validation refuses, as U+FFFD). */
function utf8Octets(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * The line folded to lines of at most 75 octets: a break (CRLF) and one space before each
 * continuation, the space counted in its line's 75. Breaks fall between code points, so neither a
 * UTF-8 sequence nor a UTF-16 surrogate pair is ever split; unfolding (removing every CRLF and the
 * space after it) gives the line back exactly. A combining mark may start a continuation line:
 * it is a character of its own, and the unfolded text is the same.
 */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line, 'utf8') <= MAX_LINE_OCTETS) return line;
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  let room = MAX_LINE_OCTETS;
  for (const character of line) {
    const size = utf8Octets(character.codePointAt(0) ?? 0);
    if (octets + size > room) {
      lines.push(current);
      current = '';
      octets = 0;
      room = MAX_LINE_OCTETS - 1;
    }
    current += character;
    octets += size;
  }
  lines.push(current);
  return lines.join(`${CRLF} `);
}

/** `NAME:value` (or `NAME;PARAM=…:value`), folded; the value as given (escape TEXT first). */
export function contentLine(name: string, value: string): string {
  return foldLine(`${name}:${value}`);
}
