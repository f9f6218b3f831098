import { parseResourceUri } from './resource-catalogue';

describe('a stdreg:// URI read as a template and its value', () => {
  it('takes a value of up to 200 characters, decoded, and nothing longer', () => {
    expect(parseResourceUri(`stdreg://standards/${'A'.repeat(200)}`)).toMatchObject({
      template: { kind: 'standards' },
      value: 'A'.repeat(200),
    });
    expect(parseResourceUri(`stdreg://standards/${'A'.repeat(201)}`)).toBeNull();
    expect(parseResourceUri('stdreg://roles/settlement%2Dapprover')).toMatchObject({ value: 'settlement-approver' });
    expect(parseResourceUri('stdreg://roles/%E0%A4%A')).toBeNull();
  });

  it('takes no value that is a dot segment, however spelled: the upstream path would resolve it away to another route', () => {
    for (const value of ['.', '..', '%2E', '%2e%2E', '.%2E']) {
      expect(parseResourceUri(`stdreg://standards/${value}`)).toBeNull();
      expect(parseResourceUri(`stdreg://split-projects/${value}`)).toBeNull();
    }
    expect(parseResourceUri('stdreg://standards/...')).toMatchObject({ value: '...' });
    expect(parseResourceUri('stdreg://glossary-page/.a')).toMatchObject({ value: '.a' });
  });

  it('reads a singleton only as current, and nothing outside the templates', () => {
    expect(parseResourceUri('stdreg://manifest/current')).toMatchObject({ template: { kind: 'manifest' }, value: null });
    expect(parseResourceUri('stdreg://manifest/previous')).toBeNull();
    expect(parseResourceUri('stdreg://nothing/current')).toBeNull();
    expect(parseResourceUri('stdreg://standards/RUL-3/extra')).toBeNull();
  });
});
