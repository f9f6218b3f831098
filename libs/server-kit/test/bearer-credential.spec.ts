import { bearerCredential } from '../src';

describe('bearerCredential', () => {
  it('reads the scheme in any case, after one or more spaces', () => {
    for (const header of ['Bearer abc.def', 'bearer abc.def', 'BEARER abc.def', 'Bearer   abc.def'])
      expect(bearerCredential(header)).toBe('abc.def');
  });

  it('refuses anything but one bearer credential', () => {
    for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Bearerabc', 'Bearer\tabc', 'Token abc'])
      expect(bearerCredential(header)).toBeNull();
  });
});
