import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { contentDigest, loadPack, samplePackDirectory, type ContentPack } from '../src';

async function loadSample(): Promise<ContentPack> {
  const result = await loadPack(samplePackDirectory());
  if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 10), null, 2));
  return result.pack;
}

describe('the sample content pack', () => {
  it('is valid and as large as the registry promises', async () => {
    const pack = await loadSample();
    expect(new Set(pack.standards.map((b) => b.sectionId)).size).toBeGreaterThanOrEqual(30);
    expect(pack.standards.filter((b) => b.status === 'superseded').length).toBeGreaterThanOrEqual(2);
    expect(pack.terms.length).toBeGreaterThanOrEqual(80);
    expect(pack.tasks.length).toBeGreaterThanOrEqual(25);
    expect(pack.roles.length).toBeGreaterThanOrEqual(12);
    expect(pack.policies.length).toBeGreaterThanOrEqual(6);
    expect(pack.policies.every((p) => p.versions.length >= 2)).toBe(true);
    expect(pack.splitTemplates.length).toBeGreaterThanOrEqual(2);
  });

  it('gives every term more names in both languages, none of them its own name', async () => {
    const pack = await loadSample();
    for (const term of pack.terms) {
      for (const locale of ['en', 'zh-Hans'] as const) {
        const names = term.designations?.[locale] ?? [];
        expect({ termId: term.termId, locale, enough: names.length >= 3 }).toEqual({ termId: term.termId, locale, enough: true });
        expect(names).not.toContain(term.term[locale]);
        expect(new Set(names).size).toBe(names.length);
      }
    }
  });

  it("says, for most clauses of the current standards, in both languages, what states the clause's opposite", async () => {
    const pack = await loadSample();
    const clauses = pack.standards.filter((b) => b.status === 'current').flatMap((b) => b.clauses);
    const withContradictions = clauses.filter(
      (c) => c.conditions && c.conditions.contradictedBy.en.length > 0 && c.conditions.contradictedBy['zh-Hans'].length > 0,
    );
    expect(withContradictions.length / clauses.length).toBeGreaterThanOrEqual(0.9);
  });

  it('has a stable digest: the same content twice, and the same content reordered, give one digest', async () => {
    const pack = await loadSample();
    const again = await loadSample();
    const reordered: ContentPack = { ...again, terms: [...again.terms].reverse(), standards: [...again.standards].reverse() };
    expect(contentDigest(pack)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(contentDigest(again)).toBe(contentDigest(pack));
    expect(contentDigest(reordered)).toBe(contentDigest(pack));
  });

  it('gives another digest for any change, however small', async () => {
    const pack = await loadSample();
    const digest = contentDigest(pack);
    const firstTerm = pack.terms[0]!;
    const changedText: ContentPack = {
      ...pack,
      terms: [
        { ...firstTerm, definition: { ...firstTerm.definition, 'zh-Hans': firstTerm.definition['zh-Hans'] + '。' } },
        ...pack.terms.slice(1),
      ],
    };
    const changedVersion: ContentPack = { ...pack, pack: { ...pack.pack, packVersion: '2099.1.0' } };
    expect(contentDigest(changedText)).not.toBe(digest);
    expect(contentDigest(changedVersion)).not.toBe(digest);
  });

  it('gives another digest for a change in any file of the pack', async () => {
    const pack = await loadSample();
    const digest = contentDigest(pack);
    const changes: Record<string, ContentPack> = {
      brand: { ...pack, brand: { ...pack.brand, snapshotId: `${pack.brand.snapshotId}-next` } },
      standards: { ...pack, standards: pack.standards.slice(1) },
      terms: { ...pack, terms: pack.terms.slice(1) },
      roles: { ...pack, roles: pack.roles.slice(1) },
      tasks: { ...pack, tasks: pack.tasks.slice(1) },
      policies: { ...pack, policies: pack.policies.slice(1) },
      splitTemplates: { ...pack, splitTemplates: pack.splitTemplates.slice(1) },
    };
    for (const [part, changed] of Object.entries(changes)) expect([part, contentDigest(changed)]).not.toEqual([part, digest]);
  });

  it('is stored as files the digest reads exactly (no hidden normalization of strings)', async () => {
    const raw = JSON.parse(await readFile(path.join(samplePackDirectory(), 'terms.json'), 'utf8')) as unknown[];
    const pack = await loadSample();
    expect(pack.terms).toEqual(raw);
  });
});
