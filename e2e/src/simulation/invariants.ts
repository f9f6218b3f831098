// The invariants of the lifecycle, checked after every step twice: in standards-api's database (and
// identity's audit) with SQL, and through the API as a reader sees it. A broken invariant is a
// Violation naming what broke.
import { parseAmount } from '@stdreg/split-engine';
import type { Caller, Person } from './actors';
import { withDatabase, type Query } from './database';
import { Violation, type Acknowledged } from './operations';

const CURRENCY = 'EUR';
const sumOf = (amounts: string[]) => amounts.reduce((total, value) => total + parseAmount(value, CURRENCY), 0n);

/** What the checker has seen of the append-only facts: each must stay exactly as first seen. */
export class InvariantChecker {
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly databases: { standards: string; identity: string },
    private readonly acknowledged: Acknowledged,
  ) {}

  async checkDatabase(): Promise<void> {
    const violations = await withDatabase(this.databases.standards, async (query) => [
      ...(await this.appendOnly(query)),
      ...(await numbering(query)),
      ...(await settlements(query)),
      ...(await this.formalWrites(query)),
    ]);
    if (violations.length) throw new Violation(violations.join('\n'));
  }

  /** Every fact seen before is still there, unchanged; every fact the API acknowledged is there. */
  private async appendOnly(query: Query): Promise<string[]> {
    const facts = await query<{ key: string; value: string }>(
      `SELECT 'revision ' || scenario_id || '.' || revision AS key, md5(content::text) || rules_digest || created_by AS value FROM scenario_revision
       UNION ALL SELECT 'rule version ' || project_id || '.' || version, md5(rules::text) || rules_digest || scenario_id || revision || effective_from || created_by FROM rule_version
       UNION ALL SELECT 'run ' || id, digest || distributable || md5(allocations::text) || coalesce(reverses_run_id::text, '-') || posted_by FROM settlement_run
       UNION ALL SELECT 'entry ' || id, settlement_run_id || legal_entity_id || amount || kind || coalesce(reverses_entry_id::text, '-') FROM equity_ledger_entry
       UNION ALL SELECT 'audit ' || id, action || target || subject_kind || subject_id FROM write_audit`,
    );
    const now = new Map(facts.map((fact) => [fact.key, fact.value]));
    const violations: string[] = [];
    for (const [key, value] of this.seen) {
      if (!now.has(key)) violations.push(`${key} was lost`);
      else if (now.get(key) !== value) violations.push(`${key} changed`);
    }
    for (const [key, value] of now) this.seen.set(key, value);
    const projects = new Set((await query<{ id: string }>('SELECT id FROM split_project')).map((row) => row.id));
    for (const id of this.acknowledged.projects) if (!projects.has(id)) violations.push(`project ${id} was acknowledged but is not there`);
    for (const revision of this.acknowledged.revisions)
      if (!now.has(`revision ${revision}`)) violations.push(`revision ${revision} was acknowledged but is not there`);
    const digests = new Map(
      (
        await query<{ key: string; digest: string }>(`SELECT project_id || '.' || version AS key, rules_digest AS digest FROM rule_version`)
      ).map((row) => [row.key, row.digest]),
    );
    for (const [key, digest] of this.acknowledged.ruleVersions)
      if (digests.get(key) !== digest) violations.push(`rule version ${key} was acknowledged as ${digest}, is ${digests.get(key)}`);
    const runs = new Map(
      (await query<{ id: string; digest: string }>('SELECT id, digest FROM settlement_run')).map((row) => [row.id, row.digest]),
    );
    for (const [id, digest] of this.acknowledged.runs)
      if (runs.get(id) !== digest) violations.push(`run ${id} was acknowledged as ${digest}, is ${runs.get(id)}`);
    return violations;
  }

  /**
   * Every rule version and settlement run was written by a person, recorded in the write audit, after
   * identity allowed that person that formal action on that project (identity's audit, success).
   */
  private async formalWrites(query: Query): Promise<string[]> {
    const writes = await query<{ what: string; action: string; project: string; subject: string; at: string; audited: boolean }>(
      `SELECT 'rule version ' || project_id || '.' || version AS what,
              CASE WHEN version = 1 THEN 'split-project:activate' ELSE 'rule-version:create' END AS action,
              project_id::text AS project, created_by AS subject, created_at::text AS at,
              EXISTS (SELECT 1 FROM write_audit a WHERE a.target = project_id::text AND a.subject_kind = 'human'
                        AND 'human:' || a.subject_id = created_by AND (a.detail->>'version')::int = version) AS audited
         FROM rule_version
       UNION ALL
       SELECT 'run ' || s.id, 'settlement-run:post', s.project_id::text, s.posted_by, s.posted_at::text,
              EXISTS (SELECT 1 FROM write_audit a WHERE a.target = s.id::text AND a.action = 'settlement-run.post'
                        AND a.subject_kind = 'human' AND 'human:' || a.subject_id = s.posted_by)
         FROM settlement_run s`,
    );
    const violations = writes.filter((write) => !write.audited).map((write) => `${write.what} has no human write audit entry`);
    const humans = writes.filter((write) => write.subject.startsWith('human:'));
    for (const write of writes) if (!write.subject.startsWith('human:')) violations.push(`${write.what} was written by ${write.subject}`);
    if (humans.length === 0) return violations;
    const allows = await withDatabase(this.databases.identity, (identity) =>
      identity<{ key: string; n: number; first: string }>(
        `SELECT actor_id || ' ' || substr(action, 10) || ' ' || target AS key, count(*)::int AS n, min(at)::text AS first
           FROM audit_entry WHERE action LIKE 'decision:%' AND outcome = 'success' AND actor_kind = 'human' GROUP BY 1`,
      ),
    );
    const allowed = new Map(allows.map((row) => [row.key, row]));
    const needed = new Map<string, number>();
    for (const write of humans) {
      const key = `${write.subject.slice('human:'.length)} ${write.action} ${write.project}`;
      needed.set(key, (needed.get(key) ?? 0) + 1);
      const allow = allowed.get(key);
      if (!allow) violations.push(`${write.what} (${write.action} by ${write.subject}) has no allow in identity's audit`);
      else if (Date.parse(allow.first) > Date.parse(write.at)) violations.push(`${write.what} was written before identity allowed it`);
    }
    for (const [key, n] of needed) {
      const allow = allowed.get(key);
      if (allow && allow.n < n) violations.push(`${n} formal writes (${key}) but ${allow.n} allows in identity's audit`);
    }
    return violations;
  }

  /** The same, as readers of the API see the projects `touched` and the ledgers of `organizations`. */
  async checkApi(
    caller: Caller,
    reader: (organizationId: string) => Person,
    touched: Set<string>,
    organizations: Set<string>,
  ): Promise<void> {
    const violations: string[] = [];
    const read = async (organizationId: string, path: string): Promise<Record<string, unknown>> => {
      const person = reader(organizationId);
      const answer = await caller.send({ token: person.token, organizationId, person }, { method: 'GET', path });
      if (answer.status !== 200) throw new Violation(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      return answer.body;
    };
    const all = async (organizationId: string, path: string, field = 'items') => {
      const items: Record<string, unknown>[] = [];
      let last: Record<string, unknown> = {};
      let cursor: string | null = null;
      do {
        const separator = path.includes('?') ? '&' : '?';
        last = await read(organizationId, `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        items.push(...((last[field] as Record<string, unknown>[] | undefined) ?? []));
        cursor = (last['nextCursor'] as string | null | undefined) ?? null;
      } while (cursor);
      return { items, last };
    };
    const projects = await withDatabase(this.databases.standards, (query) =>
      query<{ id: string; organizationId: string }>(
        'SELECT id, organization_id AS "organizationId" FROM split_project WHERE id = ANY($1)',
        [[...touched]],
      ),
    );
    for (const { id, organizationId } of projects) {
      const versions = (await all(organizationId, `/split-projects/${id}/rule-versions`)).items.map((v) => v['version'] as number);
      if (versions.some((version, index) => version !== index + 1))
        violations.push(`project ${id}'s rule versions read ${versions.join(',')}`);
      for (const scenario of (await all(organizationId, `/split-projects/${id}/scenarios`)).items) {
        const revisions = (await all(organizationId, `/operating-scenarios/${scenario['id'] as string}/revisions`)).items.map(
          (r) => r['revision'] as number,
        );
        if (revisions.some((revision, index) => revision !== index + 1))
          violations.push(`scenario ${scenario['id'] as string}'s revisions read ${revisions.join(',')}`);
      }
      const runs = (await all(organizationId, `/split-projects/${id}/settlement-runs`)).items;
      const standing = new Map<string, number>();
      for (const run of runs) {
        if (run['correctedByRunId'] === null) standing.set(run['periodId'] as string, (standing.get(run['periodId'] as string) ?? 0) + 1);
        const allocations = (run['allocations'] as { amount: string }[]).map((a) => a.amount);
        if (sumOf(allocations) !== parseAmount(run['distributable'] as string, CURRENCY)) {
          violations.push(
            `run ${run['id'] as string} reads allocations ${allocations.join('+')} for distributable ${run['distributable'] as string}`,
          );
        }
      }
      for (const [period, n] of standing) if (n !== 1) violations.push(`project ${id} reads ${n} standing runs for ${period}`);
    }
    for (const organizationId of organizations) {
      const legalEntities = await withDatabase(this.databases.standards, (query) =>
        query<{ id: string; total: string }>(
          `SELECT legal_entity_id AS id, sum(amount::numeric)::text AS total FROM equity_ledger_entry WHERE organization_id = $1 GROUP BY 1`,
          [organizationId],
        ),
      );
      for (const { id, total } of legalEntities) {
        const { items, last } = await all(organizationId, `/equity-ledgers/${id}`, 'entries');
        let running = 0n;
        for (const entry of items) {
          running += parseAmount(entry['amount'] as string, CURRENCY);
          if (parseAmount(entry['balance'] as string, CURRENCY) !== running) {
            violations.push(
              `ledger ${id}: entry ${entry['id'] as string} reads balance ${entry['balance'] as string}, the entries sum to ${running}`,
            );
            break;
          }
        }
        const balance = (last['balances'] as { currency: string; balance: string }[]).find((b) => b.currency === CURRENCY)?.balance ?? '0';
        if (parseAmount(balance, CURRENCY) !== running || running !== parseAmount(total, CURRENCY)) {
          violations.push(`ledger ${id} reads balance ${balance}; its entries read sum to ${running} minor units; SQL sums ${total}`);
        }
      }
    }
    if (violations.length) throw new Violation(violations.join('\n'));
  }
}

/** Revisions and rule versions are numbered 1, 2, … without gaps; every scenario has revision 1. */
async function numbering(query: Query): Promise<string[]> {
  const gaps = await query<{ what: string }>(
    `SELECT 'scenario ' || s.id || ' has revisions ' || coalesce(string_agg(r.revision::text, ',' ORDER BY r.revision), 'none') AS what
       FROM operating_scenario s LEFT JOIN scenario_revision r ON r.scenario_id = s.id
      GROUP BY s.id HAVING count(r.revision) = 0 OR max(r.revision) <> count(*) OR min(r.revision) <> 1
     UNION ALL
     SELECT 'project ' || project_id || ' has rule versions ' || string_agg(version::text, ',' ORDER BY version)
       FROM rule_version GROUP BY project_id HAVING max(version) <> count(*) OR min(version) <> 1
     UNION ALL
     SELECT 'project ' || p.id || ' has no scenario' FROM split_project p WHERE NOT EXISTS (SELECT 1 FROM operating_scenario s WHERE s.project_id = p.id)`,
  );
  return gaps.map((gap) => gap.what);
}

/**
 * One standing run per settled period; a correction reverses exactly the corrected run's allocation
 * entries, negated; every run's allocations sum to its distributable and are its ledger entries.
 */
async function settlements(query: Query): Promise<string[]> {
  const violations = (
    await query<{ what: string }>(
      `SELECT 'project ' || project_id || ' period ' || period_id || ' has ' || count(*) || ' standing runs' AS what
         FROM settlement_run s WHERE NOT EXISTS (SELECT 1 FROM settlement_run c WHERE c.reverses_run_id = s.id)
        GROUP BY project_id, period_id HAVING count(*) <> 1
       UNION ALL
       SELECT 'project ' || project_id || ' period ' || period_id || ' has ' || count(*) || ' first runs'
         FROM settlement_run WHERE reverses_run_id IS NULL GROUP BY project_id, period_id HAVING count(*) <> 1
       UNION ALL
       SELECT 'run ' || r.id || ' does not reverse exactly the allocations of run ' || r.reverses_run_id
         FROM settlement_run r WHERE r.reverses_run_id IS NOT NULL AND (
           (SELECT count(*) FROM equity_ledger_entry e WHERE e.settlement_run_id = r.id AND e.kind = 'reversal') <>
           (SELECT count(*) FROM equity_ledger_entry e WHERE e.settlement_run_id = r.reverses_run_id AND e.kind = 'allocation')
           OR EXISTS (SELECT 1 FROM equity_ledger_entry e
                        LEFT JOIN equity_ledger_entry o ON o.id = e.reverses_entry_id
                       WHERE e.settlement_run_id = r.id AND e.kind = 'reversal'
                         AND (o.id IS NULL OR o.settlement_run_id <> r.reverses_run_id OR o.kind <> 'allocation'
                              OR o.amount::numeric <> -e.amount::numeric OR o.legal_entity_id <> e.legal_entity_id
                              OR o.participant_id <> e.participant_id)))
       UNION ALL
       SELECT 'run ' || id || ' reverses entries although it corrects nothing' FROM settlement_run r
        WHERE reverses_run_id IS NULL AND EXISTS (SELECT 1 FROM equity_ledger_entry e WHERE e.settlement_run_id = r.id AND e.kind = 'reversal')`,
    )
  ).map((row) => row.what);
  const runs = await query<{
    id: string;
    distributable: string;
    allocations: { legalEntityId: string; amount: string }[];
    entries: string[] | null;
  }>(
    `SELECT r.id, r.distributable, r.allocations,
            (SELECT array_agg(e.legal_entity_id || ' ' || e.amount ORDER BY e.legal_entity_id) FROM equity_ledger_entry e
              WHERE e.settlement_run_id = r.id AND e.kind = 'allocation') AS entries
       FROM settlement_run r`,
  );
  for (const run of runs) {
    if (sumOf(run.allocations.map((a) => a.amount)) !== parseAmount(run.distributable, CURRENCY)) {
      violations.push(`run ${run.id}: allocations ${run.allocations.map((a) => a.amount).join('+')} do not sum to ${run.distributable}`);
    }
    const expected = run.allocations.map((a) => `${a.legalEntityId} ${a.amount}`).sort();
    if (JSON.stringify(expected) !== JSON.stringify([...(run.entries ?? [])].sort())) {
      violations.push(`run ${run.id}: ledger entries ${JSON.stringify(run.entries)} are not its allocations ${JSON.stringify(expected)}`);
    }
  }
  return violations;
}
