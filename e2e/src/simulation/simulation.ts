// A seeded simulation of the split-project lifecycle: actors draft, revise, compare, activate,
// version, post and correct, and retry, against the built services on PostgreSQL, while standards-api
// is SIGKILLed and restarted, its database connections are ended and identity turns slow; the
// invariants are checked after every step. The seed decides the schedule; a failure names it.
import { castActors, Caller, type Person } from './actors';
import { withDatabase } from './database';
import { InvariantChecker } from './invariants';
import { Operations, Violation, type Acknowledged, type OperationContext } from './operations';
import { scheduleOf, type Step } from './schedule';
import { startSimulatedPlatform, type SimulatedPlatform } from './simulated-platform';

export interface SimulationReport {
  seed: number;
  steps: number;
  operations: number;
  operationsByKind: Record<string, number>;
  kills: number;
  drops: number;
  connectionsDropped: number;
  slowSpells: number;
  /** Requests that got no answer (or a 503) during a fault and were sent again, with the same Idempotency-Key. */
  resentRequests: number;
  facts: Record<string, number>;
}

export class SimulationFailure extends Error {
  constructor(seed: number, step: number, cause: unknown, serviceErrors: string[]) {
    const logged = serviceErrors.length ? `\nstandards-api logged:\n${serviceErrors.join('\n')}` : '';
    super(`the simulation with SIM_SEED=${seed} broke at step ${step}: ${cause instanceof Error ? cause.message : String(cause)}${logged}`);
  }
}

export interface SimulationOptions {
  seed: number;
  steps: number;
  /** Called after every step (progress of a long run). */
  onStep?(step: Step, report: SimulationReport): void;
}

export async function runSimulation(options: SimulationOptions): Promise<SimulationReport> {
  const platform = await startSimulatedPlatform();
  try {
    const cast = await castActors(platform);
    try {
      return await simulate(platform, cast.people, cast.appKeys, options);
    } finally {
      await cast.close();
    }
  } finally {
    await platform.stop();
  }
}

async function simulate(
  platform: SimulatedPlatform,
  people: Person[],
  appKeys: Map<string, string>,
  options: SimulationOptions,
): Promise<SimulationReport> {
  const schedule = scheduleOf(options.seed, { steps: options.steps, actors: people.length });
  const caller = new Caller(() => platform.standardsApiUrl);
  const acknowledged: Acknowledged = { projects: new Set(), revisions: new Set(), ruleVersions: new Map(), runs: new Map() };
  const checker = new InvariantChecker({ standards: platform.standardsDatabaseUrl, identity: platform.identityDatabaseUrl }, acknowledged);
  const history: OperationContext['history'] = new Map();
  const report: SimulationReport = {
    seed: options.seed,
    steps: 0,
    operations: 0,
    operationsByKind: {},
    kills: 0,
    drops: 0,
    connectionsDropped: 0,
    slowSpells: 0,
    resentRequests: 0,
    facts: {},
  };
  const reader = (organizationId: string) => people.find((person) => person.organizationId === organizationId)!;
  let slowUntil = -1;
  let latencyMs = 0;

  for (const step of schedule) {
    try {
      const fault = step.fault;
      if (fault?.kind === 'slow-identity') {
        latencyMs = fault.latencyMs;
        slowUntil = step.index + fault.steps - 1;
        report.slowSpells++;
      }
      platform.slowIdentity(step.index <= slowUntil ? latencyMs : 0);
      const touched = new Set<string>();
      const ran = await withDatabase(platform.standardsDatabaseUrl, async (query) => {
        const context: OperationContext = {
          seed: options.seed,
          step: step.index,
          caller,
          query,
          acknowledged,
          history,
          appKeys,
          racing: step.operations.length > 1,
          identitySlow: step.index <= slowUntil,
          touched,
        };
        const operations = new Operations(context);
        // A fault in the middle of the step's requests: the outage lasts until standards-api is back.
        let endOutage = () => undefined as void;
        caller.outage = fault && fault.kind !== 'slow-identity' ? new Promise<void>((resolve) => (endOutage = resolve)) : null;
        const faulting = caller.outage ? injectFault(platform, step, report).finally(() => endOutage()) : Promise.resolve();
        try {
          const done = await Promise.all(step.operations.map((scheduled) => operations.run(people[scheduled.actor]!, scheduled)));
          await faulting;
          return done;
        } finally {
          await faulting.catch(() => undefined);
          caller.outage = null;
        }
      });
      for (const operation of ran) report.operationsByKind[operation] = (report.operationsByKind[operation] ?? 0) + 1;
      report.operations += ran.length;
      // The checks read with identity answering quickly: the fault is the operations', not the reader's.
      platform.slowIdentity(0);
      await checker.checkDatabase();
      const organizations = new Set(step.operations.map((scheduled) => people[scheduled.actor]!.organizationId));
      await checker.checkApi(caller, reader, touched, organizations);
      report.steps++;
      report.resentRequests = caller.resentRequests;
      options.onStep?.(step, report);
    } catch (error) {
      throw new SimulationFailure(options.seed, step.index, error, await platform.standardsApiErrors().catch(() => []));
    }
  }
  platform.slowIdentity(0);
  report.facts = await withDatabase(platform.standardsDatabaseUrl, async (query) => {
    const [row] = await query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM split_project) AS projects, (SELECT count(*)::int FROM scenario_revision) AS revisions,
              (SELECT count(*)::int FROM rule_version) AS "ruleVersions", (SELECT count(*)::int FROM settlement_run) AS runs,
              (SELECT count(*)::int FROM settlement_run WHERE reverses_run_id IS NOT NULL) AS corrections,
              (SELECT count(*)::int FROM equity_ledger_entry) AS "ledgerEntries"`,
    );
    return row!;
  });
  return report;
}

/** The step's kill or drop, `afterMs` into its requests. */
async function injectFault(platform: SimulatedPlatform, step: Step, report: SimulationReport): Promise<void> {
  const fault = step.fault!;
  if (fault.kind === 'slow-identity') return;
  await new Promise((resolve) => setTimeout(resolve, fault.afterMs));
  if (fault.kind === 'kill') {
    await platform.killStandardsApi();
    report.kills++;
    await platform.restartStandardsApi();
  } else {
    report.connectionsDropped += await platform.dropStandardsConnections();
    report.drops++;
  }
}

export { Violation };
