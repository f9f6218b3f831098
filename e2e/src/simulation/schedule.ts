// The simulation's schedule: which actor does which operation at each step, and where the faults
// fall. A pure function of the seed and the number of steps, so a seed replays the same schedule.

export const OPERATIONS = [
  'create-project',
  'branch-scenario',
  'revise-scenario',
  'revise-stale',
  'compare-scenarios',
  'activate',
  'create-rule-version',
  'post-settlement',
  'correct-settlement',
  'post-settled-period',
  'retry-same-key',
  'retry-other-body',
  'formal-write-by-key',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** How often each operation is drawn, relative to the others. */
const WEIGHTS: Record<Operation, number> = {
  'create-project': 3,
  'branch-scenario': 3,
  'revise-scenario': 5,
  'revise-stale': 2,
  'compare-scenarios': 2,
  activate: 3,
  'create-rule-version': 3,
  'post-settlement': 5,
  'correct-settlement': 4,
  'post-settled-period': 1,
  'retry-same-key': 4,
  'retry-other-body': 2,
  'formal-write-by-key': 1,
};

/**
 * A fault of a step: standards-api SIGKILLed while the step's request is under way (`kill`), its
 * PostgreSQL connections ended from the server while it runs (`drop`), or identity slowed down for
 * this step and the next few (`slow-identity`, `latencyMs` per chunk).
 */
export type Fault =
  { kind: 'kill'; afterMs: number } | { kind: 'drop'; afterMs: number } | { kind: 'slow-identity'; latencyMs: number; steps: number };

export interface ScheduledOperation {
  actor: number;
  operation: Operation;
  /** Uniform draws in [0, 1) that pick among what exists when the step runs (which project, which period…). */
  draws: number[];
}

export interface Step {
  index: number;
  /** One operation, or two or three at once (actors racing). */
  operations: ScheduledOperation[];
  fault: Fault | null;
}

export interface ScheduleOptions {
  steps: number;
  actors: number;
}

/** mulberry32: a tiny, fast 32-bit generator; good enough to spread a schedule, and the same everywhere. */
export function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DRAWS_PER_OPERATION = 6;
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, operation) => sum + WEIGHTS[operation], 0);

function drawOperation(random: () => number): Operation {
  let left = random() * TOTAL_WEIGHT;
  for (const operation of OPERATIONS) {
    left -= WEIGHTS[operation];
    if (left < 0) return operation;
  }
  return OPERATIONS[OPERATIONS.length - 1]!;
}

/**
 * One fault of each kind per 25 steps (at least one each), at positions the generator picks, and a
 * race of two or three actors at about one step in eight.
 */
export function scheduleOf(seed: number, options: ScheduleOptions): Step[] {
  const random = generator(seed);
  const faultsEach = Math.max(1, Math.round(options.steps / 25));
  const faults = new Map<number, Fault>();
  // Step 0 has no fault: the first project is created before anything fails.
  const freeStep = () => {
    for (;;) {
      const at = 1 + Math.floor(random() * (options.steps - 1));
      if (!faults.has(at)) return at;
    }
  };
  for (let i = 0; i < faultsEach; i++) {
    faults.set(freeStep(), { kind: 'kill', afterMs: Math.floor(random() * 60) });
    faults.set(freeStep(), { kind: 'drop', afterMs: Math.floor(random() * 40) });
    faults.set(freeStep(), {
      kind: 'slow-identity',
      latencyMs: [150, 600, 2500][Math.floor(random() * 3)]!,
      steps: 1 + Math.floor(random() * 4),
    });
  }
  return Array.from({ length: options.steps }, (_, index) => {
    const racing = index > 0 && random() < 0.125 ? 2 + Math.floor(random() * 2) : 1;
    const operations = Array.from({ length: racing }, () => ({
      actor: Math.floor(random() * options.actors),
      operation: index === 0 ? ('create-project' as const) : drawOperation(random),
      draws: Array.from({ length: DRAWS_PER_OPERATION }, () => random()),
    }));
    return { index, operations, fault: faults.get(index) ?? null };
  });
}

/** Picks one of `items` with a draw in [0, 1). */
export function pick<T>(items: readonly T[], draw: number): T | undefined {
  return items[Math.floor(draw * items.length)];
}
