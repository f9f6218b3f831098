// The platform's story against running services (start them with `npm start` first):
//   node tools/walkthrough.mjs        (env: IDENTITY_URL, STANDARDS_API_URL, MCP_URL, PLATFORM_KEY or DATA_DIR)
// The walkthrough is TypeScript shared with the end-to-end test (e2e/src); it is bundled here first,
// next to node_modules so its packages resolve, then run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, bundle } from './build/bundle.mjs';

const outdir = path.join(ROOT, 'tmp/walkthrough');
await bundle({ entryPoints: { walkthrough: path.join(ROOT, 'e2e/src/walkthrough-cli.ts') }, outdir });
const run = spawnSync(process.execPath, [path.join(outdir, 'walkthrough.js')], { stdio: 'inherit', env: process.env });
process.exit(run.status ?? 1);
