// Citations of standards blocks: SECTION@version#clause (version and clause optional).
export interface StandardReference {
  sectionId: string;
  version: string | null;
  clauseId: string | null;
}

const REFERENCE = /^([A-Z]{2,5}-[0-9]{1,3})(?:@([0-9]+\.[0-9]+))?(?:#([0-9]+(?:\.[0-9]+)*))?$/;

export function parseStandardReference(reference: string): StandardReference | null {
  const match = REFERENCE.exec(reference.trim());
  if (!match) return null;
  return { sectionId: match[1]!, version: match[2] ?? null, clauseId: match[3] ?? null };
}

export const REFERENCE_FORMAT = 'SECTION-N@major.minor#clause, e.g. RUL-3@2.0#1 (version and clause optional)';
