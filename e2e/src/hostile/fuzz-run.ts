// One fuzzing run: fast-check sends generated requests one at a time, and each answer is held to the
// checks; a refused request must leave every table's row count as it was.
import fc from 'fast-check';
import { printable, reportable, send, type Answer, type HostileRequest } from './hostile-request';
import { RowCounts } from './row-counts';

export interface FuzzSettings {
  seed: number;
  /** Requests per fuzzed surface (standards-api, identity, the gateway). */
  runs: number;
  /** How long one request may take to be answered. */
  timeoutMs: number;
}

/** HOSTILE_SEED, HOSTILE_RUNS and HOSTILE_TIMEOUT_MS, or the CI budget with a new seed. */
export function fuzzSettings(ciRuns: number): FuzzSettings {
  const number = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  return {
    seed: number('HOSTILE_SEED') ?? Math.floor(Math.random() * 2 ** 31),
    runs: number('HOSTILE_RUNS') ?? ciRuns,
    timeoutMs: number('HOSTILE_TIMEOUT_MS') ?? 15_000,
  };
}

export interface FuzzTarget {
  origin: string;
  requests: fc.Arbitrary<HostileRequest>;
  /** What is wrong with an answer; `sent` is the request's own text (an echo of it is not a leak). */
  problemsOf(answer: Answer, sent: string[]): string[];
  /** Whether the answer (to this request) says it cannot have written anything (then no table's row count may change). */
  wroteNothing(answer: Answer, hostile: HostileRequest): boolean;
}

export interface FuzzOutcome {
  /** Requests sent, shrinking included. */
  sent: number;
  statuses: Record<string, number>;
}

export async function fuzz(target: FuzzTarget, rows: RowCounts, settings: FuzzSettings): Promise<FuzzOutcome> {
  const outcome: FuzzOutcome = { sent: 0, statuses: {} };
  let counts = await rows.read();
  const property = fc.asyncProperty(target.requests.map(reportable), async (hostile) => {
    outcome.sent++;
    const answer = await send(target.origin, hostile, settings.timeoutMs);
    const status = answer.failure ? 'none' : String(answer.status);
    if (process.env['HOSTILE_LOG']) console.log(hostile.target, hostile.path.slice(0, 80), status, answer.body.slice(0, 200));
    outcome.statuses[status] = (outcome.statuses[status] ?? 0) + 1;
    const problems = target.problemsOf(answer, sentText(hostile));
    const after = await rows.read();
    if (target.wroteNothing(answer, hostile)) {
      const changed = RowCounts.changed(counts, after);
      if (changed.length) problems.push(`answered as writing nothing, yet rows changed: ${changed.join(', ')}`);
    }
    counts = after;
    if (problems.length) throw new Error(`${printable(hostile)}\n→ ${status}: ${problems.join('\n  ')}`);
  });
  await fc.assert(property, { seed: settings.seed, numRuns: settings.runs, endOnFailure: process.env['HOSTILE_NO_SHRINK'] === '1' });
  return outcome;
}

/** The texts of a request, decoded as the server would see them. */
function sentText(hostile: HostileRequest): string[] {
  const texts = [hostile.path, ...hostile.headers.map(([, value]) => value)];
  for (const part of hostile.path.split(/[/?&=]/)) texts.push(decoded(part));
  if (hostile.body !== undefined) {
    texts.push(hostile.body);
    try {
      collectStrings(JSON.parse(hostile.body), texts);
    } catch {
      // not JSON: the raw text is all there is
    }
  }
  return texts;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function collectStrings(value: unknown, into: string[]): void {
  const pending = [value];
  while (pending.length) {
    const current = pending.pop();
    if (typeof current === 'string') into.push(current);
    else if (current && typeof current === 'object') for (const [key, inner] of Object.entries(current)) pending.push(key, inner);
  }
}
