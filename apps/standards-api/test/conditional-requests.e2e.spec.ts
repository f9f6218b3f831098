import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// RFC 9110 section 13 (conditional requests) tried with raw header values on every route that has a validator:
// the registry reads (a digest of the bytes, weak comparison for If-None-Match) and an operating scenario
// ("<id>.<revision>", If-Match compared strongly).
const ORG = randomUUID();
const identity = new FakeIdentity();
let api: RunningStandardsApi;
const as = { Authorization: `Bearer member-of:${ORG}`, 'X-Organization-Id': ORG };
const registry = (path: string) => `/api/v2${path}`;

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_READ_CACHE_MS: '0',
  });
});
afterAll(async () => {
  await api.close();
  await identity.stop();
});

async function etagOf(path: string, headers: Record<string, string> = {}): Promise<string> {
  const answer = await request(api.server).get(registry(path)).set(headers).expect(200);
  return answer.headers['etag'] as string;
}

describe('a registry read', () => {
  const path = '/manifest?lang=en';

  it('answers 304 to If-None-Match naming its ETag strongly, weakly, in a list with spaces, or *', async () => {
    const etag = await etagOf(path);
    const weak = `W/${etag}`;
    for (const value of [etag, weak, `"a",${etag}`, `  "a" ,  ${weak} , "b"  `, '*', `"a", , ${etag}`]) {
      const answer = await request(api.server).get(registry(path)).set('If-None-Match', value);
      expect([value, answer.status]).toEqual([value, 304]);
    }
  });

  it('answers 200 to If-None-Match tags that are not its ETag: other tags, unquoted or lower-case w/', async () => {
    const etag = await etagOf(path);
    const bare = etag.slice(1, -1);
    // `*` is a whole field value, never a list element (RFC 9110 section 13.1.2): `"other", *` names no tag.
    for (const value of ['"other"', bare, `w/${etag}`, `"${bare}`, `${etag}x`, '**', '', '"other", *']) {
      const answer = await request(api.server).get(registry(path)).set('If-None-Match', value);
      expect([value, answer.status]).toEqual([value, 200]);
      expect(answer.headers['etag']).toBe(etag);
    }
  });

  it("answers 200 to the ETag of another language's variant, by ?lang= and by Accept-Language", async () => {
    const en = await etagOf('/manifest?lang=en');
    const zh = await etagOf('/manifest?lang=zh-Hans');
    expect(zh).not.toBe(en);
    await request(api.server).get(registry('/manifest?lang=zh-Hans')).set('If-None-Match', en).expect(200);
    await request(api.server).get(registry('/manifest')).set({ 'Accept-Language': 'zh-Hans', 'If-None-Match': en }).expect(200);
    const negotiated = await etagOf('/manifest', { 'Accept-Language': 'zh-Hans' });
    expect(negotiated).toBe(zh);
    await request(api.server).get(registry('/manifest?lang=zh-Hans')).set('If-None-Match', negotiated).expect(304);
  });

  it('sends on a 304 the ETag, Cache-Control, Vary, Date and Content-Language of the 200, and no body', async () => {
    const ok = await request(api.server).get(registry(path)).expect(200);
    const notModified = await request(api.server)
      .get(registry(path))
      .set('If-None-Match', ok.headers['etag'] as string)
      .expect(304);
    for (const field of ['etag', 'cache-control', 'vary', 'content-language']) {
      expect([field, notModified.headers[field]]).toEqual([field, ok.headers[field]]);
    }
    expect(Date.parse(notModified.headers['date'] as string)).not.toBeNaN();
    expect(ok.headers['content-location']).toBeUndefined();
    expect(ok.headers['expires']).toBeUndefined();
    expect(notModified.text).toBe('');
  });

  it('answers HEAD as GET: the same ETag and headers without a body, and 304 to its own ETag', async () => {
    const get = await request(api.server).get(registry(path)).expect(200);
    const head = await request(api.server).head(registry(path)).expect(200);
    for (const field of ['etag', 'cache-control', 'vary', 'content-language', 'content-type', 'content-length']) {
      expect([field, head.headers[field]]).toEqual([field, get.headers[field]]);
    }
    expect(head.text).toBeUndefined();
    await request(api.server)
      .head(registry(path))
      .set('If-None-Match', get.headers['etag'] as string)
      .expect(304);
    await request(api.server).head(registry(path)).set('If-Match', '"other"').expect(412);
  });

  it('refuses with 412 an If-Match that does not name its ETag strongly, and serves one that does or *', async () => {
    const etag = await etagOf(path);
    for (const value of ['"other"', `W/${etag}`, etag.slice(1, -1)]) {
      const refused = await request(api.server).get(registry(path)).set('If-Match', value);
      expect([value, refused.status]).toEqual([value, 412]);
      expect(refused.body).toMatchObject({ status: 412, code: 'precondition_failed', domainCode: 'registry.changed' });
      expect([refused.headers['cache-control'], refused.headers['etag']]).toEqual(['no-store', undefined]);
    }
    await request(api.server).get(registry(path)).set('If-Match', '"other", *').expect(412);
    // A representation not yet built (its records read from the database first) is refused the same way.
    const unread = await request(api.server).get(registry('/terms?limit=3&lang=zh-Hans')).set('If-Match', '"other"');
    expect([unread.status, unread.body.domainCode]).toEqual([412, 'registry.changed']);
    for (const value of [etag, `"other", ${etag}`, '*']) {
      const served = await request(api.server).get(registry(path)).set('If-Match', value);
      expect([value, served.status]).toEqual([value, 200]);
    }
  });

  it('evaluates If-Match before If-None-Match (RFC 9110 section 13.2.2)', async () => {
    const etag = await etagOf(path);
    await request(api.server).get(registry(path)).set({ 'If-Match': '"other"', 'If-None-Match': etag }).expect(412);
    await request(api.server).get(registry(path)).set({ 'If-Match': etag, 'If-None-Match': etag }).expect(304);
  });

  it('ignores If-Modified-Since and If-Unmodified-Since: the registry gives no modification date', async () => {
    const etag = await etagOf(path);
    const future = new Date(Date.now() + 86_400_000).toUTCString();
    const past = 'Thu, 01 Jan 1970 00:00:00 GMT';
    await request(api.server).get(registry(path)).set('If-Modified-Since', future).expect(200);
    await request(api.server).get(registry(path)).set({ 'If-Modified-Since': future, 'If-None-Match': '"other"' }).expect(200);
    await request(api.server).get(registry(path)).set({ 'If-Modified-Since': future, 'If-None-Match': etag }).expect(304);
    await request(api.server).get(registry(path)).set('If-Unmodified-Since', past).expect(200);
  });

  it('answers a read that is not found 404 whatever its preconditions say (RFC 9110 section 13.2.1)', async () => {
    for (const headers of [{ 'If-None-Match': '*' }, { 'If-Match': '"other"' }, { 'If-Match': '*' }]) {
      await request(api.server).get(registry('/standards/ZZZ-999')).set(headers).expect(404);
    }
  });
});

describe('an operating scenario', () => {
  async function newScenario(): Promise<{ id: string; etag: string }> {
    const created = await request(api.server)
      .post('/api/v2/split-projects')
      .set(as)
      .send({ name: 'Conditional', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(201);
    const id = created.body.scenario.id as string;
    return { id, etag: `"${id}.1"` };
  }
  const read = (id: string, query = '') => request(api.server).get(`/api/v2/operating-scenarios/${id}${query}`).set(as);
  const patch = (id: string) =>
    request(api.server)
      .patch(`/api/v2/operating-scenarios/${id}`)
      .set(as)
      .send({ periods: [{ periodId: '2026-01', revenue: '5.00', costs: '0' }] });
  const revisions = async (id: string) =>
    (await api.dataSource.query('SELECT count(*)::int AS n FROM scenario_revision WHERE scenario_id = $1', [id]))[0].n as number;

  it('answers a GET naming its current ETag in If-None-Match with 304 (weakly too), carrying the ETag and Cache-Control', async () => {
    const { id, etag } = await newScenario();
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const answer = await read(id).set('If-None-Match', value);
      expect([value, answer.status]).toEqual([value, 304]);
      expect(answer.headers['etag']).toBe(etag);
      expect(answer.headers['cache-control']).toBe('private, no-cache');
    }
    await read(id).set('If-None-Match', `"${id}.2"`).expect(200);
    await read(id).set({ 'If-None-Match': etag, 'Cache-Control': 'no-cache' }).expect(304);
  });

  it('refuses a GET whose If-Match does not name the current revision strongly with 412', async () => {
    const { id, etag } = await newScenario();
    const refused = await read(id).set('If-Match', `"${id}.2"`).expect(412);
    expect(refused.body).toMatchObject({ code: 'precondition_failed', domainCode: 'scenarios.changed' });
    expect(refused.headers['etag']).toBeUndefined();
    await read(id).set('If-Match', `W/${etag}`).expect(412);
    await read(id).set('If-Match', etag).expect(200);
    await patch(id).set('If-Match', etag).expect(200);
    // A past revision has no ETag: only * holds for it, and no tag makes it 304.
    await read(id, '?revision=1').set('If-Match', etag).expect(412);
    await read(id, '?revision=1').set('If-Match', '*').expect(200);
    await read(id, '?revision=1').set('If-None-Match', `"${id}.2"`).expect(200);
  });

  it('answers HEAD as GET', async () => {
    const { id, etag } = await newScenario();
    const get = await read(id).expect(200);
    const head = await request(api.server).head(`/api/v2/operating-scenarios/${id}`).set(as).expect(200);
    expect([head.headers['etag'], head.headers['content-length']]).toEqual([etag, get.headers['content-length']]);
    await request(api.server).head(`/api/v2/operating-scenarios/${id}`).set(as).set('If-None-Match', etag).expect(304);
  });

  it('refuses a PATCH whose If-Match is weak, unquoted, stale or in no list with 412, storing nothing', async () => {
    const { id, etag } = await newScenario();
    for (const value of [`W/${etag}`, etag.slice(1, -1), `"${id}.2"`, `"a", W/${etag}`, '']) {
      const answer = await patch(id).set('If-Match', value);
      expect([value, answer.status]).toEqual([value, 412]);
    }
    expect(await revisions(id)).toBe(1);
    await patch(id).set('If-Match', `"a" ,  ${etag}`).expect(200);
    expect(await revisions(id)).toBe(2);
    await patch(id).set('If-Match', '*').expect(200);
  });

  it('refuses a PATCH whose If-None-Match is * or names the current revision with 412, storing nothing', async () => {
    const { id, etag } = await newScenario();
    for (const value of ['*', etag, `W/${etag}`, `"other", ${etag}`]) {
      const answer = await patch(id).set('If-None-Match', value);
      expect([value, answer.status]).toEqual([value, 412]);
      expect(answer.body).toMatchObject({ code: 'precondition_failed', domainCode: 'scenarios.not_changed' });
    }
    expect(await revisions(id)).toBe(1);
    await patch(id).set('If-None-Match', `"${id}.2"`).expect(200);
    expect(await revisions(id)).toBe(2);
  });

  it('ignores If-Unmodified-Since on a PATCH: a scenario gives no modification date', async () => {
    const { id } = await newScenario();
    await patch(id).set('If-Unmodified-Since', 'Thu, 01 Jan 1970 00:00:00 GMT').expect(200);
  });

  it('answers a PATCH of a scenario that does not exist 404 whatever its preconditions', async () => {
    await patch(randomUUID()).set('If-Match', '*').expect(404);
    await patch(randomUUID()).set('If-None-Match', '*').expect(404);
  });
});
