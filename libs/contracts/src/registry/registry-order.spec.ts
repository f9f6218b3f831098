import { compareBlockReferences, compareSectionIds, compareVersions } from './registry-order';

describe('the registry key orders', () => {
  it('orders section ids by their letters, then their numbers as numbers', () => {
    expect(['RUL-10', 'RUL-2', 'GOV-3', 'RUL-1', 'AB-7', 'ABC-1'].sort(compareSectionIds)).toEqual([
      'AB-7',
      'ABC-1',
      'GOV-3',
      'RUL-1',
      'RUL-2',
      'RUL-10',
    ]);
  });

  it('orders two spellings of one section number by code units, so that no two ids are equal', () => {
    expect(compareSectionIds('RUL-02', 'RUL-2')).toBeLessThan(0);
    expect(compareSectionIds('RUL-2', 'RUL-02')).toBeGreaterThan(0);
  });

  it('orders versions as numbers', () => {
    expect(['1.10', '2.0', '1.9', '10.0'].sort(compareVersions)).toEqual(['1.9', '1.10', '2.0', '10.0']);
  });

  it('orders block references by section id, then version', () => {
    expect(['RUL-10@1.0', 'RUL-2@1.10', 'GOV-1@2.0', 'RUL-2@1.9'].sort(compareBlockReferences)).toEqual([
      'GOV-1@2.0',
      'RUL-2@1.9',
      'RUL-2@1.10',
      'RUL-10@1.0',
    ]);
  });
});
