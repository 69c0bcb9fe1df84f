import { normalizeUsername, toNfc } from './user.rules.js';

describe('toNfc', () => {
  it('gives ASCII text back as it is', () => {
    expect(toNfc('bench-AbC:0123 ~\u007f')).toBe('bench-AbC:0123 ~\u007f');
    expect(toNfc('')).toBe('');
  });

  it('composes decomposed text, wherever the non-ASCII character is', () => {
    expect(toNfc('cafe\u0301')).toBe('caf\u00e9');
    expect(toNfc('e\u0301cole')).toBe('\u00e9cole');
    expect(toNfc('A\u030a-ok')).toBe('\u00c5-ok');
  });

  it('agrees with String.prototype.normalize on text that is already NFC or mixed', () => {
    for (const text of ['caf\u00e9', 'пароль🔑', '\u1e9b\u0323', 'ä\u0308x', 'Å', '\u212b']) {
      expect(toNfc(text)).toBe(text.normalize('NFC'));
    }
  });

  it('is what user names are normalized with', () => {
    expect(normalizeUsername('Jose\u0301')).toBe('Jos\u00e9');
    expect(normalizeUsername('curator')).toBe('curator');
  });
});
