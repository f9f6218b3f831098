import type { StandardBlockDto } from '@stdreg/contracts';
import { z } from 'zod';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure, text } from '../shared-schemas';
import { parseStandardReference, REFERENCE_FORMAT } from './standard-reference';

const output = z.object({
  reference: z.string(),
  valid: z.boolean(),
  sectionId: z.string().nullable(),
  version: z.string().nullable(),
  clauseId: z.string().nullable(),
  exists: z.boolean(),
  status: z.enum(['current', 'superseded']).nullable(),
  currentVersion: z.string().nullable(),
  supersededBy: z.string().nullable(),
  currentCitation: z.string().nullable(),
  problems: z.array(z.string()),
});
type Output = z.output<typeof output>;

export const validateStandardReference = defineTool({
  name: 'validate_standard_reference',
  title: 'Validate a standard reference',
  description: `Check a citation (${REFERENCE_FORMAT}): exists, current or superseded, and what replaced it.`,
  input: z.object({ reference: text(60).describe('e.g. RUL-3@1.0#2') }).strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ reference }, { registry }) {
    const parsed = parseStandardReference(reference);
    const empty: Output = {
      reference,
      valid: false,
      sectionId: null,
      version: null,
      clauseId: null,
      exists: false,
      status: null,
      currentVersion: null,
      supersededBy: null,
      currentCitation: null,
      problems: [],
    };
    if (!parsed) return { ok: true, output: { ...empty, problems: [`Not a standard reference; expected ${REFERENCE_FORMAT}.`] } };
    const base = { ...empty, ...parsed };
    const current = await registry.read<StandardBlockDto>(`/standards/${parsed.sectionId}`);
    if (!current.ok) {
      if (current.status === 404)
        return { ok: true, output: { ...base, problems: [`No standards block ${parsed.sectionId} in the registry.`] } };
      return failure(current.message);
    }
    const at =
      parsed.version === null
        ? current
        : await registry.read<StandardBlockDto>(`/standards/${parsed.sectionId}`, { version: parsed.version });
    if (!at.ok) {
      if (at.status !== 404) return failure(at.message);
      const problems = [`${parsed.sectionId} has no version ${parsed.version}; versions: ${current.body.versions.join(', ')}.`];
      return { ok: true, output: { ...base, currentVersion: current.body.version, currentCitation: current.body.citation, problems } };
    }
    const problems: string[] = [];
    const clauseExists = parsed.clauseId === null || at.body.clauses.some((clause) => clause.clauseId === parsed.clauseId);
    if (!clauseExists) {
      problems.push(`${at.body.citation} has no clause ${parsed.clauseId}; clauses: ${at.body.clauses.map((c) => c.clauseId).join(', ')}.`);
    }
    if (at.body.status === 'superseded')
      problems.push(
        `${at.body.citation} is superseded by ${parsed.sectionId}@${at.body.supersededBy ?? current.body.version}; cite ${current.body.citation}.`,
      );
    return {
      ok: true,
      output: {
        ...base,
        exists: clauseExists,
        valid: problems.length === 0,
        status: at.body.status,
        currentVersion: current.body.version,
        supersededBy: at.body.supersededBy ? `${parsed.sectionId}@${at.body.supersededBy}` : null,
        currentCitation: current.body.citation,
        problems,
      },
    };
  },
  render: (o) => (o.valid ? `${o.reference} is valid and current.` : `${o.reference}: ${o.problems.join(' ')}`),
});
