import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { LedgerRunningBalance1764321000000 } from '../src/migrations/1764321000000-ledger-running-balance';
import { credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';
import { sampleScenario } from './support/sample-scenario';

const ORG = randomUUID();
let running: ProtectedApi;

const as = credentialHeaders(`member-of:${ORG}`, ORG);

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(async () => {
  await running.close();
});

describe('the running-balance migration', () => {
  it('back-fills every existing entry with the exact sum of its ledger and currency up to it, then keeps them', async () => {
    const body = { name: 'Back-fill', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } };
    const projectId = (await request(running.api.server).post('/api/v2/split-projects').set(as).send(body).expect(201)).body.project.id;
    const runId = randomUUID();
    await running.api.dataSource.query(
      `INSERT INTO settlement_run (id, organization_id, project_id, period_id, rule_version, gross, costs, distributable, currency, allocations, digest,
         posted_by, posted_at, period_end, rules_digest, tiers)
       VALUES ($1, $2, $3, '2026-01', 1, '1.00', '0.00', '1.00', 'EUR', '[]', 'sha256:abc', 'human:uid-poster', '2026-02-01T09:00:00Z',
         '2026-01-31T23:59:59Z', 'sha256:rules', '[]')`,
      [runId, ORG, projectId],
    );
    const migration = new LedgerRunningBalance1764321000000();
    const runner = running.api.dataSource.createQueryRunner();
    try {
      // The schema before the migration: entries without balances, written in any order.
      await migration.down(runner);
      await runner.query(
        `INSERT INTO equity_ledger_entry (id, organization_id, legal_entity_id, settlement_run_id, participant_id, currency, amount, posted_at)
         SELECT gen_random_uuid(), $1, CASE WHEN i % 5 = 0 THEN 'LEI-BOB-0003' ELSE 'LEI-ALICE-0002' END, $2, 'alice',
                CASE WHEN i % 3 = 0 THEN 'JPY' ELSE 'EUR' END,
                CASE WHEN i % 3 = 0 THEN ((i * 7919) % 2001 - 1000)::text ELSE to_char(((i * 104729) % 200001 - 100000) / 100.0, 'FM9999990.00') END,
                '2026-01-01T00:00:00Z'::timestamptz + (i % 7) * interval '1 day'
           FROM generate_series(1, 120) AS i ORDER BY random()`,
        [ORG, runId],
      );
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const wrong = await running.api.dataSource.query(
      `SELECT e.id FROM equity_ledger_entry e
        WHERE e.organization_id = $1 AND e.balance <> (SELECT sum(o.amount::numeric)::text FROM equity_ledger_entry o
          WHERE o.organization_id = e.organization_id AND o.legal_entity_id = e.legal_entity_id AND o.currency = e.currency
            AND (o.posted_at, o.id) <= (e.posted_at, e.id))`,
      [ORG],
    );
    expect(wrong).toEqual([]);
    const [{ count }] = await running.api.dataSource.query(
      'SELECT count(*)::int AS count FROM equity_ledger_entry WHERE organization_id = $1',
      [ORG],
    );
    expect(count).toBe(120);

    // The trigger is back: a new entry continues its ledger's balance.
    const [{ before }] = await running.api.dataSource.query(
      `SELECT sum(amount::numeric) AS before FROM equity_ledger_entry WHERE organization_id = $1 AND legal_entity_id = 'LEI-ALICE-0002' AND currency = 'EUR'`,
      [ORG],
    );
    const id = randomUUID();
    await running.api.dataSource.query(
      `INSERT INTO equity_ledger_entry (id, organization_id, legal_entity_id, settlement_run_id, participant_id, currency, amount, posted_at)
       VALUES ($1, $2, 'LEI-ALICE-0002', $3, 'alice', 'EUR', '0.01', '2026-02-01T00:00:00Z')`,
      [id, ORG, runId],
    );
    const [{ balance, expected }] = await running.api.dataSource.query(
      `SELECT balance, ($2::numeric + 0.01)::text AS expected FROM equity_ledger_entry WHERE id = $1`,
      [id, String(before)],
    );
    expect(balance).toBe(expected);
  });
});
