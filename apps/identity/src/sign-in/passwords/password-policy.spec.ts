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
