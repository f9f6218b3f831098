// `node tools/walkthrough.mjs`: the walkthrough against services already running (`npm start`).
// URLs default to npm start's; the operator's platform key comes from PLATFORM_KEY or the bootstrap file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runWalkthrough } from './walkthrough';

const env = process.env;
const dataDir = path.resolve(env['DATA_DIR'] ?? '.data');
const platformKey = env['PLATFORM_KEY'] ?? readFileSync(path.join(dataDir, 'bootstrap-platform-key'), 'utf8').trim();
const platform = {
  identityUrl: env['IDENTITY_URL'] ?? 'http://127.0.0.1:3003',
  standardsApiUrl: env['STANDARDS_API_URL'] ?? 'http://127.0.0.1:3001',
  mcpUrl: env['MCP_URL'] ?? 'http://127.0.0.1:3002/mcp',
  platformKey,
};

try {
  const { missingAudit } = await runWalkthrough(platform, (line) => console.log(line));
  if (missingAudit.length > 0) {
    console.error(`the audit log lacks: ${JSON.stringify(missingAudit)}`);
    process.exitCode = 1;
  } else {
    console.log('\nThe walkthrough went through; every step is in the audit log.');
  }
} catch (error) {
  console.error(`the walkthrough stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
