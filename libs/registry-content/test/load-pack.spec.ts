import { cpSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatIssues, loadPack, samplePackDirectory, type ContentPack } from '../src';

describe('loadPack', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'load-pack-'));
    cpSync(samplePackDirectory(), directory, { recursive: true });
  });

  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('loads a terms file of more than 10 000 terms and 8 MB, as a pack a thousand times the sample grows to', async () => {
    const sample = await loadPack(directory);
    if (!sample.ok) throw new Error(formatIssues(sample.issues));
    const copies = 120;
    // The first copy keeps the sample's ids (the standards name some terms); the others are numbered.
    const idOf = (id: string, copy: number) => (copy === 0 ? id : `${id}-${copy}`);
    const terms: ContentPack['terms'] = Array.from({ length: copies }, (_, copy) =>
      sample.pack.terms.map((term) => ({ ...term, termId: idOf(term.termId, copy), related: term.related?.map((id) => idOf(id, copy)) })),
    ).flat();
    writeFileSync(path.join(directory, 'terms.json'), JSON.stringify(terms, null, 2));
    expect(statSync(path.join(directory, 'terms.json')).size).toBeGreaterThan(8 * 1024 * 1024);

    const result = await loadPack(directory);

    expect(result.ok || formatIssues(result.issues)).toBe(true);
    expect(result.ok && result.pack.terms).toHaveLength(sample.pack.terms.length * copies);
  });
});
