import { passwordProblem } from './password-policy';

describe('the password policy', () => {
  const email = 'li.wei@example.com';

  it('accepts a long password with varied characters', () => {
    expect(passwordProblem('correct horse battery', email)).toBeNull();
  });

  it('refuses short, overlong, email-based and one-note passwords', () => {
    expect(passwordProblem('Sh0rt!pass', email)).toBe('too_short');
    expect(passwordProblem('x'.repeat(60) + 'abcdefghij'.repeat(7), email)).toBe('too_long');
    expect(passwordProblem('my LI.WEI@example.com pw', email)).toBe('contains_email');
    expect(passwordProblem('li.wei-is-my-password', email)).toBe('contains_email');
    expect(passwordProblem('abababababababab', email)).toBe('too_simple');
  });

  it('counts spaces in a row as one towards the minimum, and keeps them all towards the maximum', () => {
    expect(passwordProblem('a b     c   d  e', email)).toBe('too_short');
    expect(passwordProblem('a b\u3000\u3000c\u00a0\u00a0d  e f', email)).toBe('too_short');
    expect(passwordProblem('a b c d e f g', email)).toBeNull();
    expect(passwordProblem(`abcdefghijkl${' '.repeat(117)}`, email)).toBe('too_long');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(passwordProblem('密码密码密码密码密码密码', email)).toBe('too_simple');
    expect(passwordProblem('我的新密码是很长的一句话', email)).toBeNull();
  });

  it('takes 12 and 128 characters, and no fewer or more', () => {
    const of = (length: number) => 'abcdefghij'.repeat(13).slice(0, length);
    expect(passwordProblem(of(11), email)).toBe('too_short');
    expect(passwordProblem(of(12), email)).toBeNull();
    expect(passwordProblem(of(128), email)).toBeNull();
    expect(passwordProblem(of(129), email)).toBe('too_long');
  });
});
