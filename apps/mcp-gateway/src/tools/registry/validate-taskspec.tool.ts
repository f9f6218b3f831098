import type { StandardBlockDto } from '@stdreg/contracts';
import { z } from 'zod';
import type { RegistryCache } from '../../upstream/registry-cache';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure } from '../shared-schemas';
import { registryIndex } from './registry-index';
import { parseStandardReference } from './standard-reference';

const bilingual = z.object({ en: z.string().min(1), 'zh-Hans': z.string().min(1) }).strict();
const taskIo = z.object({ name: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case'), description: bilingual }).strict();
/** The TaskSpec document shape (contracts TaskSpecDto). */
const taskSpecShape = z
  .object({
    taskCode: z.string().regex(/^TSK-[0-9]{3}$/, 'must look like TSK-012'),
    title: bilingual,
    description: bilingual,
    roles: z.array(z.string()).min(1),
    prerequisites: z.array(z.string()),
    inputs: z.array(taskIo),
    outputs: z.array(taskIo).min(1),
    acceptanceCriteria: z.array(bilingual).min(1),
    standards: z.array(z.string()),
  })
  .strict();

const output = z.object({
  valid: z.boolean(),
  taskCode: z.string().nullable(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});
type Finding = { path: string; message: string };

async function checkCitation(registry: RegistryCache, citation: string, path: string): Promise<Finding | null | { unavailable: string }> {
  const reference = parseStandardReference(citation);
  if (!reference || reference.version === null) return { path, message: `${citation} is not a versioned citation like RUL-3@2.0.` };
  const block = await registry.read<StandardBlockDto>(`/standards/${reference.sectionId}`, { version: reference.version });
  if (!block.ok)
    return block.status === 404 ? { path, message: `${citation} does not exist in the registry.` } : { unavailable: block.message };
  if (reference.clauseId !== null && !block.body.clauses.some((clause) => clause.clauseId === reference.clauseId)) {
    return { path, message: `${citation} names a clause that does not exist.` };
  }
  return block.body.status === 'superseded'
    ? { path, message: `${citation} is superseded by ${reference.sectionId}@${block.body.supersededBy}.` }
    : null;
}

export const validateTaskspec = defineTool({
  name: 'validate_taskspec',
  title: 'Validate a TaskSpec',
  description: 'Check a TaskSpec document against its schema and the registry: roles, cited standards, prerequisites.',
  input: z
    .object({ taskSpec: z.record(z.string(), z.unknown()).describe('The TaskSpec document (as stdreg://taskspec/{taskCode} shows one)') })
    .strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ taskSpec }, { registry }) {
    const shape = taskSpecShape.safeParse(taskSpec);
    const taskCode = typeof taskSpec['taskCode'] === 'string' ? taskSpec['taskCode'] : null;
    if (!shape.success) {
      const errors = shape.error.issues.map((issue) => ({ path: `/${issue.path.join('/')}`, message: issue.message }));
      return { ok: true, output: { valid: false, taskCode, errors } };
    }
    const loaded = await registryIndex(registry);
    if (!loaded.ok) return failure(loaded.message);
    const { tasks, roles } = loaded.index;
    const spec = shape.data;
    const errors: Finding[] = [];
    spec.roles.forEach((role, i) => {
      if (!roles.has(role)) errors.push({ path: `/roles/${i}`, message: `Unknown role ${role}.` });
    });
    spec.prerequisites.forEach((code, i) => {
      if (code === spec.taskCode) errors.push({ path: `/prerequisites/${i}`, message: 'A task cannot be its own prerequisite.' });
      else if (!tasks.has(code)) errors.push({ path: `/prerequisites/${i}`, message: `Unknown task ${code}.` });
    });
    for (const [i, citation] of spec.standards.entries()) {
      const finding = await checkCitation(registry, citation, `/standards/${i}`);
      if (finding && 'unavailable' in finding) return failure(finding.unavailable);
      if (finding) errors.push(finding);
    }
    return { ok: true, output: { valid: errors.length === 0, taskCode: spec.taskCode, errors } };
  },
  render: (o) =>
    o.valid
      ? `TaskSpec ${o.taskCode} is valid.`
      : `TaskSpec ${o.taskCode ?? ''} has ${o.errors.length} problem(s):\n${o.errors.map((e) => `${e.path}: ${e.message}`).join('\n')}`,
});
