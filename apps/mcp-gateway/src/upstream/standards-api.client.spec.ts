import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOOLS } from '../tools/tool-catalogue';
import { isDraftWritePath, StandardsApiClient } from './standards-api.client';

const TOOLS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../tools');
const FORMAL_PATHS = [
  '/split-projects/p/activate',
  '/split-projects/p/rule-versions',
  '/split-projects/p/settlement-runs',
  '/settlement-runs',
  '/equity-ledgers/e',
  '/payments',
];

async function sourcesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return Promise.all(
    entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => readFile(path.join(e.parentPath, e.name), 'utf8')),
  );
}

describe('what the gateway may write', () => {
  it('allows drafting a split project and nothing formal', () => {
    expect(isDraftWritePath('/split-projects')).toBe(true);
    for (const formal of FORMAL_PATHS) expect({ formal, allowed: isDraftWritePath(formal) }).toEqual({ formal, allowed: false });
  });

  it('refuses a formal write without sending anything to standards-api', async () => {
    let requests = 0;
    const upstream = createServer((_, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const client = new StandardsApiClient(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, 1000);
      const actingAs = {
        credential: { kind: 'api_key' as const, value: 'stdreg_app_x' },
        organizationId: '01900000-0000-7000-8000-000000000000',
      };
      for (const formal of FORMAL_PATHS) expect(await client.postDraft(formal, {}, actingAs)).toMatchObject({ ok: false, status: 403 });
      expect(requests).toBe(0);
      expect(await client.postDraft('/split-projects', {}, actingAs)).toMatchObject({ ok: true });
      expect(requests).toBe(1);
    } finally {
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  it('has no tool named for a formal act and no tool source naming a formal endpoint', async () => {
    for (const tool of TOOLS) expect(tool.name).not.toMatch(/^(activate|approve|post|pay|publish|write|create_rule)|equity/);
    for (const source of await sourcesOf(TOOLS_DIR)) {
      expect(source).not.toMatch(/\/activate|\/rule-versions|settlement-runs|equity-ledgers|\/payments/);
      for (const [, target] of source.matchAll(/postDraft<[^>]*>\(\s*'([^']*)'/g)) expect(target).toBe('/split-projects');
    }
  });
});
