import { evaluatePreconditions, preconditionsOf } from './preconditions';

const ETAG = '"abc"';
const evaluate = (method: string, headers: Record<string, string>, etag: string | null = ETAG) =>
  evaluatePreconditions(method, preconditionsOf(headers), etag);

describe('evaluatePreconditions (RFC 9110 section 13)', () => {
  it('compares If-Match strongly: the strong tag in any list position or *, never the weak form or an unquoted one', () => {
    for (const value of [ETAG, ` "x" ,${ETAG} `, '*', ' * '])
      expect([value, evaluate('PATCH', { 'if-match': value })]).toEqual([value, 'perform']);
    for (const value of ['W/"abc"', 'abc', '"x"', '', '"abc', 'w/"abc"'])
      expect([value, evaluate('PATCH', { 'if-match': value })]).toEqual([value, 'if-match-failed']);
  });

  it('compares If-None-Match weakly and answers 304 for GET and HEAD, 412 for other methods', () => {
    for (const value of [ETAG, 'W/"abc"', `"x", , W/"abc"`, '*']) {
      expect([value, evaluate('GET', { 'if-none-match': value })]).toEqual([value, 'not-modified']);
      expect([value, evaluate('HEAD', { 'if-none-match': value })]).toEqual([value, 'not-modified']);
      expect([value, evaluate('PATCH', { 'if-none-match': value })]).toEqual([value, 'if-none-match-failed']);
    }
    for (const value of ['"x"', 'abc', 'w/"abc"', '"abc"x', '**', ''])
      expect([value, evaluate('GET', { 'if-none-match': value })]).toEqual([value, 'perform']);
  });

  it('evaluates If-Match before If-None-Match and ignores the dates', () => {
    expect(evaluate('GET', { 'if-match': '"x"', 'if-none-match': ETAG })).toBe('if-match-failed');
    expect(evaluate('GET', { 'if-match': ETAG, 'if-none-match': ETAG })).toBe('not-modified');
    expect(
      evaluate('GET', { 'if-modified-since': 'Tue, 01 Dec 2099 00:00:00 GMT', 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }),
    ).toBe('perform');
  });

  it('lets only * match a representation that has no entity tag', () => {
    expect(evaluate('GET', { 'if-match': '*' }, null)).toBe('perform');
    expect(evaluate('GET', { 'if-match': '"abc"' }, null)).toBe('if-match-failed');
    expect(evaluate('GET', { 'if-none-match': '*' }, null)).toBe('not-modified');
    expect(evaluate('GET', { 'if-none-match': '"abc"' }, null)).toBe('perform');
  });
});
