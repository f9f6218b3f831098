// `npm run bench:observability`: the CPU cost per request of the kit's request context and trace,
// metrics and request log (see observability-overhead.ts); results in tools/bench/results/observability.json.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundle, ROOT } from '../build/bundle.mjs';

const outdir = path.join(ROOT, 'dist/bench/observability');
await bundle({ entryPoints: { main: path.join(import.meta.dirname, 'observability-overhead.ts') }, outdir });
const output = execFileSync(process.execPath, [path.join(outdir, 'main.js')], { encoding: 'utf8' });
const result = { date: new Date().toISOString(), ...JSON.parse(output) };
await mkdir(path.join(import.meta.dirname, 'results'), { recursive: true });
await writeFile(path.join(import.meta.dirname, 'results/observability.json'), JSON.stringify(result, null, 2) + '\n');
console.log(
  `per request: ${result.withoutUs.toFixed(2)} µs without, ${result.withUs.toFixed(2)} µs with the kit's observability: +${result.overheadUs.toFixed(2)} µs`,
);
