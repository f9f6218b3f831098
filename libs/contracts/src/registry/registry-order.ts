// The orders in which the registry lists its keys, where a number inside a key counts as a number.

/** Orders `major.minor` version strings numerically (`2.0` < `10.0`). */
export function compareVersions(a: string, b: string): number {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return aMajor - bMajor || aMinor - bMinor;
}

/**
 * Orders section ids (`RUL-3`) by their letters, then their number as a number: RUL-2 before RUL-10. Two
 * spellings of one number (RUL-2, RUL-02) are ordered by code units, so the order is total.
 */
export function compareSectionIds(a: string, b: string): number {
  const [aLetters, aNumber] = sectionParts(a);
  const [bLetters, bNumber] = sectionParts(b);
  return byCodeUnits(aLetters, bLetters) || aNumber - bNumber || byCodeUnits(a, b);
}

/** Orders block references (`RUL-3@2.0`) by section id, then version. */
export function compareBlockReferences(a: string, b: string): number {
  const [aSection = '', aVersion = ''] = a.split('@');
  const [bSection = '', bVersion = ''] = b.split('@');
  return compareSectionIds(aSection, bSection) || compareVersions(aVersion, bVersion);
}

function sectionParts(sectionId: string): [string, number] {
  const dash = sectionId.lastIndexOf('-');
  return [sectionId.slice(0, dash), Number(sectionId.slice(dash + 1))];
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
