import fc from 'fast-check';
import { regExpLiteral } from '../../src/domain/regexp-literal';

// Used to find ids, URLs and technology names inside text (preview redaction, the seed's skills):
// the pattern must match its text exactly, with and without the u flag, whatever it holds.
it('matches exactly the text it was made from, with or without the u flag', () => {
  for (const text of ['C++', 'C#', '.NET', 'a/b', 'x.com/jobs?id=1&(a)|[b]{2}^$\\', 'AUD-7781']) {
    for (const flags of ['', 'u']) {
      expect(new RegExp(`^${regExpLiteral(text)}$`, flags).test(text)).toBe(true);
    }
    expect(new RegExp(`^${regExpLiteral(text)}$`).test(`${text}x`)).toBe(false);
  }
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      expect(new RegExp(`^${regExpLiteral(text)}$`, 'u').test(text)).toBe(true);
    }),
  );
});
