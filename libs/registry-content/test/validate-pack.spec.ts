import { formatIssues, validatePack, type ContentPack } from '../src';
import { loadPack, samplePackDirectory } from '../src/load-pack';

async function sampleFiles(): Promise<ContentPack> {
  const result = await loadPack(samplePackDirectory());
  if (!result.ok) throw new Error(formatIssues(result.issues));
  return structuredClone(result.pack);
}

describe('validatePack', () => {
  it('names the file, the JSON Pointer and the problem for a missing locale', async () => {
    const files = await sampleFiles();
    delete (files.terms[3]!.definition as Partial<Record<string, string>>)['zh-Hans'];
    const result = validatePack(files);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues).toEqual([
      { file: 'terms.json', path: '/3/definition/zh-Hans', message: 'is missing: every localized field needs both en and zh-Hans' },
    ]);
  });

  it('reports every structural problem at once, with unknown fields and bad patterns', async () => {
    const files = await sampleFiles();
    (files.standards[0] as unknown as Record<string, unknown>)['colour'] = 'red';
    files.standards[1]!.sectionId = 'rul 3';
    files.roles[0]!.name.en = '   ';
    (files.brand.colors as Record<string, string>)['primary'] = 'blue';
    const result = validatePack(files);
    expect(!result.ok && result.issues.map((i) => `${i.file} ${i.path}`)).toEqual([
      'standards.json /0/colour',
      'standards.json /1/sectionId',
      'roles.json /0/name/en',
      'brand.json /colors/primary',
    ]);
  });

  it('takes a text of invisible characters alone as empty, as names people read are judged and as search folds them away', async () => {
    const files = await sampleFiles();
    files.terms[0]!.term.en = '\u200b';
    files.terms[1]!.term['zh-Hans'] = '\u00ad\u2060\ufeff';
    files.terms[2]!.designations = { en: ['\u3164'], 'zh-Hans': ['基数'] };
    files.terms[3]!.term.en = `\u200b${files.terms[3]!.term.en}`;
    const result = validatePack(files);
    expect(!result.ok && result.issues.map((i) => `${i.file} ${i.path} ${i.message}`)).toEqual([
      'terms.json /0/term/en must not be empty',
      'terms.json /1/term/zh-Hans must not be empty',
      'terms.json /2/designations/en/0 must not be empty',
    ]);
  });

  it('quotes a refused value shortened at whole characters, never half of one written as two UTF-16 units', async () => {
    const files = await sampleFiles();
    (files.roles[0] as unknown as Record<string, unknown>)['canApprove'] = `${'y'.repeat(51)}\u{1f600}${'z'.repeat(30)}`;
    const result = validatePack(files);
    expect(!result.ok && result.issues).toEqual([
      { file: 'roles.json', path: '/0/canApprove', message: `must be true or false, found string "${'y'.repeat(51)}\u{1f600}…` },
    ]);
  });

  it('checks designations and clause conditions like any localized list', async () => {
    const files = await sampleFiles();
    (files.terms[0]!.designations as unknown as Record<string, unknown>)['zh-Hans'] = '基点';
    delete (files.terms[1]!.designations as Partial<Record<string, string[]>>)['en'];
    const clause = files.standards.find((b) => b.clauses.some((c) => c.conditions))!.clauses.find((c) => c.conditions)!;
    clause.conditions!.contradictedBy.en = [''];
    (clause.conditions as unknown as Record<string, unknown>)['hint'] = 'x';
    const result = validatePack(files);
    expect(!result.ok && result.issues.map((i) => `${i.file} ${i.path} ${i.message}`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^terms\.json \/0\/designations\/zh-Hans must be an array/),
        'terms.json /1/designations/en is missing: every localized field needs both en and zh-Hans',
        expect.stringMatching(/^standards\.json \/\d+\/clauses\/\d+\/conditions\/contradictedBy\/en\/0 must not be empty/),
        expect.stringMatching(/^standards\.json \/\d+\/clauses\/\d+\/conditions\/hint is not an accepted field/),
      ]),
    );
  });

  it('checks references across files', async () => {
    const files = await sampleFiles();
    files.tasks[2]!.roles = ['no-such-role'];
    files.tasks[4]!.standards = ['RUL-3@9.9'];
    files.terms[0]!.related = ['no-such-term'];
    const conditioned = files.standards.findIndex((b) => b.clauses[0]!.conditions);
    files.standards[conditioned]!.clauses[0]!.conditions!.contradictedBy.en = ['@no-such-term approv'];
    const result = validatePack(files);
    expect(!result.ok && result.issues).toEqual(
      expect.arrayContaining([
        { file: 'tasks.json', path: '/2/roles/0', message: 'names unknown role "no-such-role"' },
        { file: 'tasks.json', path: '/4/standards/0', message: 'cites unknown standards block version "RUL-3@9.9"' },
        { file: 'terms.json', path: '/0/related/0', message: 'names unknown term "no-such-term"' },
        {
          file: 'standards.json',
          path: `/${conditioned}/clauses/0/conditions/contradictedBy/en/0`,
          message: 'names unknown term "@no-such-term"',
        },
      ]),
    );
  });

  it('refuses every reference that names nothing, or names the wrong thing, each at its place', async () => {
    const files = await sampleFiles();
    files.terms[0]!.standards = ['NOPE-1'];
    files.terms[1]!.related = [files.terms[1]!.termId];
    files.tasks[3]!.prerequisites = ['TSK-999'];
    files.tasks[5]!.taskCode = files.tasks[4]!.taskCode;
    files.splitTemplates[0]!.participantRoles = ['no-such-role'];
    files.splitTemplates[1]!.standards = ['RUL-1@9.9'];
    files.splitTemplates[0]!.status = 'current';
    const superseding = files.standards.findIndex((b) => b.supersedes !== undefined);
    files.standards[superseding]!.supersedes = '0.9';
    files.policies[0]!.versions[1]!.citation = `${files.policies[0]!.policyId}@1.0`;
    const result = validatePack(files);
    expect(!result.ok && result.issues).toEqual(
      expect.arrayContaining([
        { file: 'terms.json', path: '/0/standards/0', message: 'names unknown standards block "NOPE-1"' },
        { file: 'terms.json', path: '/1/related/0', message: 'a term cannot be related to itself' },
        { file: 'tasks.json', path: '/3/prerequisites/0', message: 'names unknown task "TSK-999"' },
        { file: 'tasks.json', path: '/5/taskCode', message: `duplicates taskCode "${files.tasks[4]!.taskCode}"` },
        { file: 'split-templates.json', path: '/0/participantRoles/0', message: 'names unknown role "no-such-role"' },
        { file: 'split-templates.json', path: '/1/standards/0', message: 'cites unknown standards block version "RUL-1@9.9"' },
        { file: 'split-templates.json', path: '', message: 'exactly one version must be "current", found 2' },
        {
          file: 'standards.json',
          path: `/${superseding}/supersedes`,
          message: `names unknown version "0.9" of ${files.standards[superseding]!.sectionId}`,
        },
        { file: 'policies.json', path: '/0/versions/1/citation', message: `must be "${files.policies[0]!.policyId}@2.0"` },
      ]),
    );
  });

  it('refuses a section whose current version is not its latest', async () => {
    const files = await sampleFiles();
    const older = files.standards.findIndex((b) => b.status === 'superseded');
    const newer = files.standards.findIndex((b) => b.sectionId === files.standards[older]!.sectionId && b.status === 'current');
    files.standards[older]!.status = 'current';
    files.standards[newer]!.status = 'superseded';
    const result = validatePack(files);
    expect(!result.ok && result.issues).toEqual([
      {
        file: 'standards.json',
        path: `/${older}/status`,
        message: `${files.standards[older]!.sectionId}: the current version must be the latest (${files.standards[newer]!.version})`,
      },
    ]);
  });

  it('refuses one version number spelled twice (1.0 and 1.00) in a section or among split templates: they would have no order', async () => {
    const files = await sampleFiles();
    const sections = files.standards.map((b) => b.sectionId);
    const single = files.standards.findIndex((b) => sections.filter((id) => id === b.sectionId).length === 1);
    const block = files.standards[single]!;
    files.standards.push({ ...structuredClone(block), version: `${block.version}0`, effectiveFrom: '2099-01-01' });
    block.status = 'superseded';
    const current = files.splitTemplates.findIndex((t) => t.status === 'current');
    const template = files.splitTemplates.findIndex((t) => t.status !== 'current');
    const { version } = files.splitTemplates[current]!;
    files.splitTemplates[template]!.version = `${version}0`;
    const result = validatePack(files);
    expect(!result.ok && result.issues).toEqual([
      {
        file: 'standards.json',
        path: `/${files.standards.length - 1}/version`,
        message: `duplicates block version "${block.sectionId}@${block.version}" as "${block.version}0"`,
      },
      {
        file: 'split-templates.json',
        path: `/${Math.max(current, template)}/version`,
        message:
          current > template ? `duplicates version "${version}0" as "${version}"` : `duplicates version "${version}" as "${version}0"`,
      },
    ]);
  });

  it('finds prerequisite cycles, duplicate ids and gaps between policy versions', async () => {
    const files = await sampleFiles();
    const first = files.tasks[0]!;
    const second = files.tasks[1]!;
    first.prerequisites = [second.taskCode];
    second.prerequisites = [first.taskCode];
    files.roles.push(structuredClone(files.roles[0]!));
    const policy = files.policies[0]!;
    policy.versions[1]!.effectiveFrom = '2000-01-01';
    const result = validatePack(files);
    const messages = !result.ok ? formatIssues(result.issues) : '';
    expect(messages).toMatch(/tasks\.json \/\d+\/prerequisites: prerequisites form a cycle: TSK-00\d -> TSK-00\d -> TSK-00\d/);
    expect(messages).toContain(`roles.json /${files.roles.length - 1}/role: duplicates role "${files.roles[0]!.role}"`);
    expect(messages).toMatch(
      /policies\.json \/0\/versions\/1\/effectiveFrom: must be \d{4}-\d{2}-\d{2}, the day after the previous version ends/,
    );
  });

  it('reports a missing file', () => {
    const result = validatePack({});
    expect(!result.ok && result.issues.map((i) => i.file)).toContain('pack.json');
  });
});
