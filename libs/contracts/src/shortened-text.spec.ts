import fc from 'fast-check';
import { shortenedText } from './shortened-text';

// Any code point, and now and then half of a surrogate pair on its own.
const anyUnit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
);

describe('shortenedText', () => {
  it('keeps a text of at most the bound whole, even one with more UTF-16 units than the bound', () => {
    expect(shortenedText('abc', 3, '…')).toBe('abc');
    expect(shortenedText('\u{1f600}\u{1f600}', 2, '…')).toBe('\u{1f600}\u{1f600}');
  });

  it('cuts after the bound counted in characters, with the mark, never between the halves of a pair', () => {
    expect(shortenedText('abcd', 3, '…')).toBe('abc…');
    expect(shortenedText(`${'x'.repeat(4)}\u{1f600}yy`, 5)).toBe(`${'x'.repeat(4)}\u{1f600}`);
    expect(shortenedText(`${'x'.repeat(5)}\u{1f600}`, 5)).toBe('x'.repeat(5));
    expect(shortenedText('\u{1f600}\u{1f600}\u{1f600}', 2, '…')).toBe('\u{1f600}\u{1f600}…');
  });

  it('is the first characters of the text, as many as the bound allows, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: anyUnit, maxLength: 80 }), fc.integer({ min: 0, max: 60 }), (text, most) => {
        const characters = [...text];
        const expected = characters.length > most ? `${characters.slice(0, most).join('')}~` : text;
        expect(shortenedText(text, most, '~')).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
