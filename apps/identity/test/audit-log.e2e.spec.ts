import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { uuidv7 } from '@stdreg/server-kit';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const platform = () => ({ Authorization: `Bearer ${identity.platformKey}` });

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.close());

/** Entries of one actor of this test alone, at given times; their ids (uuidv7s of one millisecond need not ascend). */
async function entriesOf(actorId: string, entries: { action: string; outcome: string; at: string; target?: string }[]): Promise<string[]> {
  const ids: string[] = [];
  for (const entry of entries) {
    const id = uuidv7();
    await identity.dataSource.query(
      `INSERT INTO audit_entry (id, at, actor_kind, actor_id, action, target, outcome) VALUES ($1, $2, 'platform_key', $3, $4, $6, $5)`,
      [id, entry.at, actorId, entry.action, entry.outcome, entry.target ?? null],
    );
    ids.push(id);
  }
  return ids;
}

const read = async (query: Record<string, string | number>): Promise<{ items: { id: string }[]; nextCursor: string | null }> =>
  (await request(identity.server).get('/v1/audit').query(query).set(platform()).expect(200)).body;
const idsOf = async (query: Record<string, string | number>) => (await read({ limit: 100, ...query })).items.map((entry) => entry.id);

describe('GET /v1/audit', () => {
  it('answers exactly the entries of the actor, action, outcome and time asked for, both ends of the period included', async () => {
    const [actor, other] = [`actor-${randomBytes(4).toString('hex')}`, `actor-${randomBytes(4).toString('hex')}`];
    const [set, setup, denied] = await entriesOf(actor, [
      { action: 'users.password-set', outcome: 'success', at: '2020-01-01T00:00:00.000Z' },
      { action: 'users.password-setup', outcome: 'failure', at: '2020-01-02T00:00:00.000Z' },
      { action: 'users.password-set', outcome: 'denied', at: '2020-01-03T00:00:00.000Z' },
    ]);
    await entriesOf(other, [{ action: 'users.password-set', outcome: 'failure', at: '2020-01-02T00:00:00.000Z' }]);

    expect(await idsOf({ actor })).toEqual([set, setup, denied].sort());
    expect(await idsOf({ actor, action: 'users.password-set' })).toEqual([set, denied].sort());
    expect(await idsOf({ actor, outcome: 'failure' })).toEqual([setup]);
    expect(await idsOf({ actor, from: '2020-01-02T00:00:00.000Z', to: '2020-01-02T00:00:00.000Z' })).toEqual([setup]);
    expect(await idsOf({ actor, from: '2020-01-02T00:00:00.001Z' })).toEqual([denied]);
    expect(await idsOf({ actor, to: '2020-01-01T23:59:59.999Z' })).toEqual([set]);
  });

  it('answers the entries of one target: what happened to one grant, whoever did it', async () => {
    const [grant, other] = [`grant-${randomBytes(6).toString('hex')}`, `grant-${randomBytes(6).toString('hex')}`];
    const [issued] = await entriesOf(`agent-${randomBytes(4).toString('hex')}`, [
      { action: 'tokens.issue', outcome: 'success', at: '2020-05-01T00:00:00.000Z', target: grant },
      { action: 'tokens.issue', outcome: 'success', at: '2020-05-01T00:00:00.000Z', target: other },
    ]);
    const [revoked] = await entriesOf(`person-${randomBytes(4).toString('hex')}`, [
      { action: 'tokens.revoke', outcome: 'success', at: '2020-05-02T00:00:00.000Z', target: grant },
    ]);
    expect(await idsOf({ target: grant })).toEqual([issued, revoked].sort());
    expect(await idsOf({ target: grant, action: 'tokens.revoke' })).toEqual([revoked]);
  });

  it('answers 20 entries to a read without a limit, as its documentation and every other list do', async () => {
    const actor = `actor-${randomBytes(4).toString('hex')}`;
    const ids = await entriesOf(
      actor,
      Array.from({ length: 21 }, () => ({ action: 'keys.create', outcome: 'success', at: '2020-04-01T00:00:00.000Z' })),
    );
    const first = await read({ actor });
    expect(first.items).toHaveLength(20);
    expect(first.nextCursor).not.toBeNull();
    const second = await read({ actor, cursor: first.nextCursor! });
    expect([...first.items, ...second.items].map((entry) => entry.id)).toEqual([...ids].sort());
    expect(second.nextCursor).toBeNull();
  });

  it('takes an entry shown at `to` into the period: entries are written to the microsecond and shown to the millisecond', async () => {
    const actor = `actor-${randomBytes(4).toString('hex')}`;
    const [early, late] = await entriesOf(actor, [
      { action: 'keys.create', outcome: 'success', at: '2020-03-01T00:00:00.000400Z' },
      { action: 'keys.create', outcome: 'success', at: '2020-03-01T00:00:00.001900Z' },
    ]);
    const shown = (await read({ actor, limit: 100 })).items as unknown as { id: string; at: string }[];
    expect(shown.map((entry) => entry.at).sort()).toEqual(['2020-03-01T00:00:00.000Z', '2020-03-01T00:00:00.001Z']);
    expect(await idsOf({ actor, to: '2020-03-01T00:00:00.000Z' })).toEqual([early]);
    expect(await idsOf({ actor, from: '2020-03-01T00:00:00.001Z', to: '2020-03-01T00:00:00.001Z' })).toEqual([late]);
    expect(await idsOf({ actor, to: '2020-02-29T23:59:59.999Z' })).toEqual([]);
  });

  it('refuses a from or to that is not a date-time with a time zone, naming the field, rather than failing or guessing a zone', async () => {
    for (const [field, value] of [
      ['from', '2026'],
      ['from', '2026-03'],
      ['from', '2026-W09-1'],
      ['to', '2026-060'],
      ['to', '20260301'],
      ['to', '2026-03-01T10:00'],
      ['from', '2026-03-01'],
    ]) {
      const refused = await request(identity.server)
        .get('/v1/audit')
        .query({ [field!]: value })
        .set(platform());
      expect({ value, status: refused.status, fields: refused.body.errors?.map((e: { field: string }) => e.field) }).toEqual({
        value,
        status: 400,
        fields: [field],
      });
    }
  });

  it('walks the entries asked for exactly once, page by page, the last page without a cursor', async () => {
    const actor = `actor-${randomBytes(4).toString('hex')}`;
    const written = await entriesOf(
      actor,
      Array.from({ length: 5 }, (_, i) => ({ action: 'keys.create', outcome: 'success', at: `2020-02-0${i + 1}T00:00:00.000Z` })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages <= written.length; pages++) {
      const page = await read({ actor, limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((entry) => entry.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual([...written].sort());
  });
});

describe('refusing malformed filters', () => {
  it.each([
    ['an unknown outcome', { outcome: 'maybe' }, 'outcome'],
    ['an actor of 101 characters', { actor: 'a'.repeat(101) }, 'actor'],
    ['a target of 2049 characters', { target: 't'.repeat(2049) }, 'target'],
    ['an empty target', { target: '' }, 'target'],
  ])('refuses %s with a 400 naming the filter', async (_, query, field) => {
    const response = await request(identity.server).get('/v1/audit').query(query).set(platform()).expect(400);
    expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });
});
