// The split projects area of the scale bench (issue 21), continued: rule versions, the comparison and
// the writes. Per size, the area's first project (whose scenario holds the revision history) is
// activated and given its rule versions through the API as a person does it (the activation in two
// steps, then one POST per version, each effective a day after the last, far in the future), and its
// settlement runs are generated into the database by tools/scale/ledger-generator.mjs (as the ledgers'
// runs are; a thousand postings through the API would be 2 000 requests of seeding). Then, sample and
// full alternating request by request: the rule versions' pages and one version, a comparison, and the
// writes: a new scenario revision, a new rule version, and a posting of a settlement run for a period of
// its own (the challenge, 428, and the confirmed write, 201, each timed). Each write adds to what it is
// measured against, so the bench reports the sizes before and after, and checks after the writes that
// each one did what it says (never a timing).
import { generateLedger } from '../scale/ledger-generator.mjs';
import { latencyStats, log, request, timedRequest } from './bench-kit.mjs';

// Not an API key: the bench's server (unprotected-standards-api.ts) lets it act as a signed-in person,
// the only subject allowed the formal writes.
const PERSON = 'Bearer bench-person';
// Rule version n takes effect on day n after this: after every earlier version, and in the future.
const FUTURE = Date.parse('2100-01-01T00:00:00Z');
const DAY_MS = 86_400_000;
const AREA = 'split projects';

const effectiveFromOf = (version) => new Date(FUTURE + version * DAY_MS).toISOString();
const json = (answer) => JSON.parse(answer.response.body.toString('utf8'));
const projectPath = (subject, rest) => `/api/v2/split-projects/${subject.firstProjectId}/${rest}`;

/** An answer's body, after checking its status (a 428 carries the challenge and its token). */
async function call(port, method, urlPath, headers, body, status) {
  return json(await timedRequest(port, method, urlPath, headers, body, status));
}

/**
 * Per size, on the first project of `subjects` (from seedProjects): the activation and rule versions
 * 2..`ruleVersions[name]`, then `runs[name]` generated settlement runs. Adds to each subject what the
 * reads and writes need.
 */
export async function seedRuleVersionsAndRuns(port, client, subjects, { ruleVersions, runs, seed, start }) {
  for (const name of ['sample', 'full']) {
    const subject = subjects[name];
    const organizationId = subject.headers['X-Organization-Id'];
    const personHeaders = { ...subject.headers, Authorization: PERSON };
    const started = performance.now();
    const activate = { scenarioId: subject.scenarioId };
    const challenge = await call(port, 'POST', projectPath(subject, 'activate'), personHeaders, activate, 428);
    await call(
      port,
      'POST',
      projectPath(subject, 'activate'),
      personHeaders,
      { ...activate, confirmationToken: challenge.confirmationToken },
      201,
    );
    for (let version = 2; version <= ruleVersions[name]; version++) {
      const body = { scenarioId: subject.scenarioId, effectiveFrom: effectiveFromOf(version) };
      await call(port, 'POST', projectPath(subject, 'rule-versions'), personHeaders, body, 201);
    }
    const versionSeconds = (performance.now() - started) / 1000;
    await generateLedger(client, {
      seed,
      organizationId,
      projectId: subject.firstProjectId,
      legalEntityId: `LEI-RUNS-${name.toUpperCase()}`,
      participants: 3,
      runs: runs[name],
      start,
    });
    log(`${name}: ${ruleVersions[name]} rule versions in ${versionSeconds.toFixed(1)} s, ${runs[name]} runs generated`);
    Object.assign(subject, { personHeaders, ruleVersions: ruleVersions[name], runs: runs[name], postings: 0, versionSeconds });
    subject.seeded = { revisions: subject.revisions, ruleVersions: subject.ruleVersions, runs: subject.runs };
  }
}

/** The reads: pages of `page` rule versions (the sample's count less one, so both pages are full at sample size), one version, a comparison. */
export function ruleVersionReads(page, cursorOf) {
  return [
    {
      area: AREA,
      read: `first page of a project's rule versions (${page})`,
      path: (subject) => projectPath(subject, `rule-versions?limit=${page}`),
    },
    {
      area: AREA,
      read: `last page of a project's rule versions (${page})`,
      path: (subject) =>
        projectPath(subject, `rule-versions?limit=${page}&cursor=${cursorOf('rule-versions', String(subject.ruleVersions - page))}`),
    },
    { area: AREA, read: 'one rule version (the latest)', path: (subject) => projectPath(subject, `rule-versions/${subject.ruleVersions}`) },
    {
      area: AREA,
      read: 'a comparison of the scenario at revision 1 and at its current revision',
      method: 'POST',
      path: (subject) => projectPath(subject, 'scenario-comparisons'),
      body: (subject) => ({ scenarios: [{ scenarioId: subject.scenarioId, revision: 1 }, { scenarioId: subject.scenarioId }] }),
    },
  ];
}

/** The rule versions' pages hold the versions they say, the comparison compares what was asked. */
export async function checkRuleVersionReads(port, subjects, page, cursorOf) {
  for (const [name, subject] of Object.entries(subjects)) {
    const reads = ruleVersionReads(page, cursorOf);
    const answers = [];
    for (const read of reads) {
      answers.push(await call(port, read.method ?? 'GET', read.path(subject), subject.headers, read.body?.(subject), 200));
    }
    const [firstPage, lastPage, one, compared] = answers;
    const versions = (list) => list.items.map((item) => item.version).join(',');
    const range = (from) => Array.from({ length: page }, (_, i) => from + i).join(',');
    if (versions(firstPage) !== range(1) || firstPage.nextCursor === null)
      throw new Error(`${name}: the first page of rule versions is ${versions(firstPage)}, not ${range(1)} with more to come`);
    if (versions(lastPage) !== range(subject.ruleVersions - page + 1) || lastPage.nextCursor !== null)
      throw new Error(`${name}: the last page of rule versions is ${versions(lastPage)}, not the last ${page} of ${subject.ruleVersions}`);
    if (one.version !== subject.ruleVersions || one.effectiveFrom !== effectiveFromOf(subject.ruleVersions))
      throw new Error(`${name}: rule version ${subject.ruleVersions} reads as version ${one.version} from ${one.effectiveFrom}`);
    const columns = compared.scenarios.map((column) => `${column.scenarioId}@${column.revision}`).join(' ');
    if (columns !== `${subject.scenarioId}@1 ${subject.scenarioId}@${subject.revisions}`)
      throw new Error(`${name}: the comparison compared ${columns}, not revision 1 and ${subject.revisions}`);
    log(`${name}: rule version pages, version ${subject.ruleVersions} and the comparison are right`);
  }
}

// Each write: its name in the table, and the request(s) it sends for a subject (sample or full), each
// request timed under its own key; `i` numbers the write within the run.
const WRITES = [
  {
    keys: { revision: 'a new scenario revision (`PATCH /operating-scenarios/{id}`)' },
    async send(port, subject, i) {
      const patch = { periods: [{ periodId: '2026-01', revenue: `${20_000 + i}.00`, costs: '0.00' }] };
      const answer = await timedRequest(port, 'PATCH', `/api/v2/operating-scenarios/${subject.scenarioId}`, subject.headers, patch);
      subject.revisions += 1;
      subject.lastRevenue = patch.periods[0].revenue;
      return { revision: answer.ms };
    },
  },
  {
    keys: { ruleVersion: 'a new rule version (`POST /split-projects/{id}/rule-versions`)' },
    async send(port, subject) {
      const body = { scenarioId: subject.scenarioId, effectiveFrom: effectiveFromOf(subject.ruleVersions + 1) };
      const answer = await timedRequest(port, 'POST', projectPath(subject, 'rule-versions'), subject.personHeaders, body, 201);
      subject.ruleVersions += 1;
      return { ruleVersion: answer.ms };
    },
  },
  {
    keys: {
      challenge: 'a posting, its challenge (`POST …/settlement-runs`, 428)',
      posting: 'a posting, confirmed (`POST …/settlement-runs` with the token, 201)',
    },
    async send(port, subject) {
      const body = { periodId: `bench-${subject.postings + 1}`, periodEnd: new Date().toISOString(), revenue: '1000.00', costs: '0.00' };
      const path = projectPath(subject, 'settlement-runs');
      const challenge = await timedRequest(port, 'POST', path, subject.personHeaders, body, 428);
      const confirmationToken = json(challenge).confirmationToken;
      const posted = await timedRequest(port, 'POST', path, subject.personHeaders, { ...body, confirmationToken }, 201);
      subject.postings += 1;
      subject.lastPostedRunId = json(posted).id;
      return { challenge: challenge.ms, posting: posted.ms };
    },
  },
];

/** Each write `warmup + samples` times, sample and full alternating request by request; rows as measure() makes them. */
export async function measureWrites(port, subjects, { warmup, samples }) {
  const rows = [];
  for (const write of WRITES) {
    const latencies = Object.fromEntries(Object.keys(write.keys).map((key) => [key, { sample: [], full: [] }]));
    for (let i = 0; i < warmup + samples; i++) {
      for (const name of ['sample', 'full']) {
        const timings = await write.send(port, subjects[name], i);
        if (i < warmup) continue;
        for (const [key, ms] of Object.entries(timings)) latencies[key][name].push(ms);
      }
    }
    for (const [key, read] of Object.entries(write.keys)) {
      const sample = latencyStats(latencies[key].sample);
      const full = latencyStats(latencies[key].full);
      rows.push({ area: AREA, read, sample, full, ratioP99: full.p99 / sample.p99 });
    }
  }
  return rows;
}

/** After the writes: the last revision is the current one, the last rule version the latest, every posting posted with its entries. */
export async function checkWrites(port, client, subjects) {
  for (const [name, subject] of Object.entries(subjects)) {
    const scenario = await call(port, 'GET', `/api/v2/operating-scenarios/${subject.scenarioId}`, subject.headers, undefined, 200);
    if (scenario.currentRevision !== subject.revisions || scenario.revision !== subject.revisions)
      throw new Error(`${name}: the scenario is at revision ${scenario.currentRevision}, ${subject.revisions} were written`);
    if (scenario.content.periods[0].revenue !== subject.lastRevenue)
      throw new Error(
        `${name}: the current revision's revenue is ${scenario.content.periods[0].revenue}, the last patch wrote ${subject.lastRevenue}`,
      );
    const latest = await request(port, {
      path: projectPath(subject, `rule-versions/${subject.ruleVersions + 1}`),
      headers: subject.headers,
    });
    const last = await call(port, 'GET', projectPath(subject, `rule-versions/${subject.ruleVersions}`), subject.headers, undefined, 200);
    if (latest.status !== 404 || last.version !== subject.ruleVersions)
      throw new Error(`${name}: rule version ${subject.ruleVersions} is not the latest (${latest.status} for the next one)`);
    const run = await call(port, 'GET', `/api/v2/settlement-runs/${subject.lastPostedRunId}`, subject.headers, undefined, 200);
    if (run.periodId !== `bench-${subject.postings}` || run.ruleVersion !== 1 || run.distributable !== '1000.00')
      throw new Error(`${name}: the last posting reads as period ${run.periodId}, rule version ${run.ruleVersion}, ${run.distributable}`);
    const [{ runs, entries }] = (
      await client.query(
        `SELECT (SELECT count(*)::int FROM settlement_run WHERE project_id = $1) AS runs,
                (SELECT count(*)::int FROM equity_ledger_entry e JOIN settlement_run r ON r.id = e.settlement_run_id
                  WHERE r.project_id = $1 AND r.period_id LIKE 'bench-%') AS entries`,
        [subject.firstProjectId],
      )
    ).rows;
    const participants = run.allocations.length;
    if (runs !== subject.seeded.runs + subject.postings || entries !== subject.postings * participants)
      throw new Error(
        `${name}: ${runs} runs and ${entries} posted entries, expected ${subject.seeded.runs + subject.postings} and ${subject.postings * participants}`,
      );
    log(
      `${name}: after the writes the scenario is at revision ${subject.revisions}, the project at rule version ${subject.ruleVersions}, ${runs} runs (${subject.postings} posted, each with its ${participants} entries)`,
    );
  }
}
