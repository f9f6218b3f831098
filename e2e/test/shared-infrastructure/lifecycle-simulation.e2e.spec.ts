import { randomInt } from 'node:crypto';
import { runSimulation } from '../../src/simulation/simulation';

// A fresh seed every run unless SIM_SEED replays one; SIM_STEPS makes the long run (see the README).
const seed = process.env['SIM_SEED'] ? Number(process.env['SIM_SEED']) : randomInt(2 ** 31);
const steps = Number(process.env['SIM_STEPS'] ?? 100);
const LONG_RUN_MS = Math.max(240_000, steps * 5_000);

describe('a seeded simulation of the split-project lifecycle against the built services and PostgreSQL', () => {
  it(
    `keeps every invariant through ${steps} steps of many actors, kills, dropped connections and a slow identity (SIM_SEED=${seed})`,
    async () => {
      process.stdout.write(`lifecycle simulation: SIM_SEED=${seed} SIM_STEPS=${steps}\n`);
      const report = await runSimulation({
        seed,
        steps,
        onStep: (step, progress) => {
          if (process.env['SIM_PROGRESS'] && step.index % 50 === 0)
            process.stdout.write(`${JSON.stringify({ ...progress, facts: undefined })}\n`);
        },
      });
      process.stdout.write(`lifecycle simulation report: ${JSON.stringify(report)}\n`);
      expect(report.steps).toBe(steps);
      expect(report.kills).toBeGreaterThan(0);
      expect(report.drops).toBeGreaterThan(0);
    },
    LONG_RUN_MS,
  );
});
