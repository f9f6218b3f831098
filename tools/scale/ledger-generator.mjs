// Deterministic, seeded generator of posted settlement runs and their equity ledger entries, written
// straight into standards-api's database (issue 21): a million entries through the posting API would
// take hours. The rows are the ones a posting writes (SettlementsRepository.insertRun): one run per
// period with one allocation entry per participant, each entry posted at the run's time plus its
// position in microseconds, (posted_at, id) growing; distributable = gross - costs = the sum of the
// allocations; the running balance is not written here but by the database's own trigger, as for a
// posting. Every value derives from the seed, the ledger and the run number, so a seed gives the same
// rows on every machine. What differs from a posting: the ids' random bits come from md5 of the seed,
// and the digests are sha256 of the generated facts rather than of split-engine's settlement.

/** The runs of one statement pair; 10 000 runs of 10 participants are 100 000 entries. */
const RUNS_PER_CHUNK = 10_000;

// Amount of participant p in run r: 0.01 to 1000.00, from md5(seed:ledger:r:p).
const MINOR = `(('x' || substr(md5($1 || ':' || $4 || ':' || r || ':' || p), 1, 8))::bit(32)::bigint % 100000 + 1)`;
const AMOUNT = (minor) => `div((${minor})::numeric, 100)::text || '.' || lpad(mod((${minor})::numeric, 100)::text, 2, '0')`;
const POSTED_AT = `($5::timestamptz + (r - 1) * interval '1 hour')`;
// A uuidv7 as the service makes them (milliseconds of the posting time, version 7, RFC variant), its
// random bits from md5(key): valid where the API parses uuids, and in time order like the real ones.
const UUID7 = (key) =>
  `(lpad(to_hex(floor(extract(epoch FROM ${POSTED_AT}) * 1000)::bigint), 12, '0') || '7' || substr(md5(${key}), 1, 3)
     || substr('89ab', ('x' || substr(md5(${key}), 4, 1))::bit(4)::int % 4 + 1, 1) || substr(md5(${key}), 5, 15))::uuid`;
const RUN_ID = UUID7(`$1 || ':run:' || $4 || ':' || r`);

/**
 * Appends `runs` settlement runs of project `projectId` to the ledger of `legalEntityId`, each with
 * `participants` allocations (participants p01..pNN, all of that legal entity), hourly from `start`.
 * `client` is a connected pg client on standards-api's database; `onProgress(entries)` after each chunk.
 */
export async function generateLedger(client, { seed, organizationId, projectId, legalEntityId, participants, runs, start, onProgress }) {
  for (let first = 1; first <= runs; first += RUNS_PER_CHUNK) {
    const last = Math.min(runs, first + RUNS_PER_CHUNK - 1);
    const params = [String(seed), organizationId, projectId, legalEntityId, start, participants, first, last];
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO settlement_run (id, organization_id, project_id, period_id, rule_version, gross, costs, distributable, currency,
         allocations, digest, reverses_run_id, posted_by, posted_at, period_end, rules_digest, tiers)
       SELECT ${RUN_ID}, $2, $3::uuid, to_char(${POSTED_AT} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24'), 1,
              ${AMOUNT('a.total')}, '0.00', ${AMOUNT('a.total')}, 'EUR', a.allocations,
              'sha256:' || encode(sha256(convert_to($1 || ':run:' || $4 || ':' || r || ':' || a.allocations::text, 'UTF8')), 'hex'),
              NULL, 'human:scale-generator', ${POSTED_AT}, ${POSTED_AT} - interval '1 minute',
              'sha256:' || encode(sha256(convert_to($1 || ':rules:' || $3::text, 'UTF8')), 'hex'), '[]'::jsonb
         FROM generate_series($7::int, $8::int) AS r
         CROSS JOIN LATERAL (
           SELECT sum(${MINOR}) AS total,
                  jsonb_agg(jsonb_build_object('participantId', 'p' || lpad(p::text, 2, '0'), 'legalEntityId', $4::text, 'amount', ${AMOUNT(MINOR)})
                    ORDER BY p) AS allocations
             FROM generate_series(1, $6::int) AS p
         ) a
        ORDER BY r`,
      params,
    );
    await client.query(
      `INSERT INTO equity_ledger_entry (id, organization_id, legal_entity_id, settlement_run_id, participant_id, currency, amount, kind, posted_at)
       SELECT ${UUID7(`$1 || ':entry:' || $4 || ':' || r || ':' || p`)}, $2, $4, ${RUN_ID}, 'p' || lpad(p::text, 2, '0'), 'EUR',
              ${AMOUNT(MINOR)}, 'allocation', ${POSTED_AT} + (p - 1) * interval '1 microsecond'
         FROM generate_series($7::int, $8::int) AS r CROSS JOIN generate_series(1, $6::int) AS p
        WHERE $3::uuid IS NOT NULL -- the runs' parameters, for one list; the project is theirs
        ORDER BY r, p`,
      params,
    );
    await client.query('COMMIT');
    onProgress?.(last * participants);
  }
}
