import { isConfirmationCode, newConfirmationCode } from './confirmation-code.js';

describe('confirmation codes', () => {
  it('carry 128 random bits after the prefix, and are never repeated', () => {
    const codes = Array.from({ length: 2000 }, newConfirmationCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes.slice(0, 50)) {
      expect(code).toMatch(/^ticket-[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(code.slice('ticket-'.length), 'base64url')).toHaveLength(16);
      expect(isConfirmationCode(code)).toBe(true);
    }
    // Every bit position varies: the code is not a counter or a timestamp with a random tail.
    const bytes = codes.map((code) => Buffer.from(code.slice('ticket-'.length), 'base64url'));
    for (let i = 0; i < 16; i++) expect(new Set(bytes.map((b) => b[i])).size).toBeGreaterThan(100);
  });

  it('refuses what is not one: other shapes, lengths and types', () => {
    for (const value of [
      '',
      'ticket-',
      'ticket-abc',
      `ticket-${'a'.repeat(23)}`,
      `TICKET-${'a'.repeat(22)}`,
      42,
      null,
    ]) {
      expect(isConfirmationCode(value)).toBe(false);
    }
    expect(isConfirmationCode(`ticket-${'a'.repeat(22)}`)).toBe(true);
  });
});
