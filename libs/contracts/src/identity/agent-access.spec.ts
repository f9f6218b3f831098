import { canonicalResourceUrl, withoutTrailingSlashes } from './agent-access';

describe('withoutTrailingSlashes', () => {
  it('drops only the slashes a text ends with, however many, and keeps those inside', () => {
    expect(withoutTrailingSlashes('/auth')).toBe('/auth');
    expect(withoutTrailingSlashes('/auth///')).toBe('/auth');
    expect(withoutTrailingSlashes('///')).toBe('');
    expect(withoutTrailingSlashes('')).toBe('');
    expect(withoutTrailingSlashes(`${'/'.repeat(5_000)}reg`)).toBe(`${'/'.repeat(5_000)}reg`);
  });

  it('gives a resource URL the canonical form the platform compares', () => {
    expect(canonicalResourceUrl('HTTP://Gateway.Example:80/mcp//')).toBe('http://gateway.example/mcp');
    expect(canonicalResourceUrl('https://gateway.example/')).toBe('https://gateway.example');
  });
});
