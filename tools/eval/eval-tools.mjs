// `npm run eval:tools`: the free-text tools (draft_alignment_report, resolve_term, recommend_role) measured
// on the labelled cases of tools/eval/cases through the built gateway (identity, standards-api and the
// gateway as built, embedded PGlite databases in a temporary folder, the gateway's standards-api traffic
// counted by a pass-through). Prints the figures, writes them to docs/tool-quality.md (the `after`
// section; `--record=before` writes the `before` one), and exits non-zero when a figure is below a floor
// recorded there. The independent cases (tools/eval/cases/independent, issue 28) are measured apart, by
// part: `dev` with the cases it misses, `check` (tools/eval/cases/check, a second author's) and `test` as
// figures only (never a case), and the test figures are kept over time in the history table of
// docs/tool-quality.md, a row per commit.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, freePort, log, makeTempDir, requestJson as json, run, startServer, waitForStatus } from '../bench/bench-kit.mjs';
import {
  brokenFloors,
  figuresTable,
  historyRow,
  loadCases,
  loadPart,
  parseFloors,
  replaceSection,
  runEval,
  withHistoryRow,
} from '../../e2e/src/tool-quality.ts';

const MAIN = (app) => path.join(ROOT, 'dist/apps', app, 'main.js');
const DOC = path.join(ROOT, 'docs/tool-quality.md');
const record = process.argv.find((arg) => arg.startsWith('--record='))?.slice('--record='.length) ?? 'after';
/**
 * `--dev-only`: the dev part, each case with what the tools answered, for reading misses, and the check part's
 * figures (never its cases) to keep or drop a method before test is read; writes nothing.
 */
const devOnly = process.argv.includes('--dev-only');
/**
 * `--without-check` (with `--dev-only`): the check part is not measured, so dev's cases can be read as often as a
 * method needs without spending one of the round's reads of check (docs/decisions.md, issue 28, eighth round).
 */
const withoutCheck = process.argv.includes('--without-check');
const serviceToken = randomBytes(32).toString('base64url');
const tempDir = makeTempDir('stdreg-eval-tools-');

async function startService(app, portVariable, extra) {
  const port = await freePort();
  const dataDir = path.join(tempDir, app);
  mkdirSync(dataDir);
  const env = { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir, [portVariable]: String(port), ...extra };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX']) delete env[name];
  log(`starting ${app} on port ${port}`);
  startServer(app, [MAIN(app)], env);
  await waitForStatus(app, port, '/readyz', 200);
  return { port, url: `http://127.0.0.1:${port}`, dataDir };
}

/** A pass-through to standards-api that counts what the gateway asks it, by tool call (manifest reads apart). */
async function countingPassThrough(target) {
  const counts = { current: 0 };
  const server = http.createServer((incoming, outgoing) => {
    if (!incoming.url.startsWith('/api/v2/manifest')) counts.current += 1;
    const forwarded = http.request(
      { host: '127.0.0.1', port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, counts, close: () => server.close() };
}

async function main() {
  for (const app of ['identity', 'standards-api', 'mcp-gateway'])
    if (!existsSync(MAIN(app))) throw new Error(`build ${app} first (NX_DAEMON=false npm run build)`);
  const identity = await startService('identity', 'IDENTITY_PORT', {
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    DECISION_SERVICE_TOKENS: `eval:${serviceToken}`,
  });
  const platformKey = readFileSync(path.join(identity.dataDir, 'bootstrap-platform-key'), 'utf8').trim();
  const standardsApi = await startService('standards-api', 'STANDARDS_API_PORT', {
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: serviceToken,
  });
  const counted = await countingPassThrough(standardsApi);
  const gateway = await startService('mcp-gateway', 'MCP_GATEWAY_PORT', {
    IDENTITY_URL: identity.url,
    STANDARDS_API_URL: counted.url,
    IDENTITY_SERVICE_TOKEN: serviceToken,
    MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '1000000',
    MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '1000000',
  });
  const asPlatform = { Authorization: `Bearer ${platformKey}` };
  const organization = await json(identity.port, 'POST', '/v1/organizations', asPlatform, { name: 'Eval Org' });
  const key = await json(identity.port, 'POST', '/v1/keys', asPlatform, {
    name: 'eval agent',
    class: 'app',
    organizationId: organization.id,
  });
  const headers = {
    Authorization: `Bearer ${key.secret}`,
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2025-11-25',
  };

  const requestsPerCall = {};
  let id = 0;
  const callTool = async (name, args) => {
    counted.counts.current = 0;
    const answer = await json(gateway.port, 'POST', '/mcp', headers, {
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    (requestsPerCall[name] ??= []).push(counted.counts.current);
    if (!answer.result || answer.result.isError) {
      log(`${name} ${JSON.stringify(args).slice(0, 80)}: ${JSON.stringify(answer.error ?? answer.result?.content).slice(0, 200)}`);
      return null;
    }
    return answer.result.structuredContent;
  };

  if (devOnly) {
    await diagnoseDev(callTool);
    counted.close();
    return;
  }
  const { figures, misses } = await runEval(loadCases(), callTool);
  const dev = loadPart('dev');
  const check = loadPart('check');
  const test = loadPart('test');
  const devRun = dev && (await runEval(dev, callTool));
  const checkRun = check && (await runEval(check, callTool));
  const testRun = test && (await runEval(test, callTool));
  counted.close();
  const requestLines = Object.entries(requestsPerCall).map(
    ([tool, counts]) => `| ${tool} | ${Math.max(...counts)} | ${(counts.reduce((sum, n) => sum + n, 0) / counts.length).toFixed(2)} |`,
  );
  const date = new Date().toISOString().slice(0, 10);
  const sizes = (cases) =>
    `${cases.alignment.length} practices, ${cases.terms.length} term look-ups and ${cases.roles.length} role descriptions`;
  const report = [
    `Measured ${date} on ${sizes(loadCases())} (tools/eval/cases), through the built gateway.`,
    '',
    figuresTable(figures),
    '',
    'standards-api requests per tool call, over every case measured in the run (manifest reads apart; the gateway caches reads per content release, so a repeated call may ask nothing):',
    '',
    '| tool | most in one call | mean |',
    '|---|---:|---:|',
    ...requestLines,
    '',
    `Cases missed (nothing expected in the top 5, a forbidden coverage claim, or a role not first): ${misses.length === 0 ? 'none' : misses.join(', ')}.`,
  ].join('\n');
  process.stdout.write(`${report}\n`);
  let doc = replaceSection(readFileSync(DOC, 'utf8'), record, report);
  if (devRun && testRun) {
    const devReport = [
      `Measured ${date} on the \`dev\` part: ${sizes(dev)}.`,
      '',
      figuresTable(devRun.figures),
      '',
      `Cases missed: ${devRun.misses.length === 0 ? 'none' : devRun.misses.join(', ')}.`,
    ].join('\n');
    const testReport = [`Measured ${date} on the \`test\` part: ${sizes(test)}.`, '', figuresTable(testRun.figures)].join('\n');
    process.stdout.write(`\nIndependent cases, dev part:\n${devReport}\n\nIndependent cases, test part (figures only):\n${testReport}\n`);
    doc = replaceSection(doc, 'independent-dev', devReport);
    doc = replaceSection(doc, 'independent-test', testReport);
    doc = withHistoryRow(doc, historyRow(date, commitNow(), testRun.figures));
  } else log('no independent cases in tools/eval/cases/independent: measured the cases beside the code only');
  if (checkRun) {
    const checkReport = [`Measured ${date} on the \`check\` part: ${sizes(check)}.`, '', figuresTable(checkRun.figures)].join('\n');
    process.stdout.write(`\nIndependent cases, check part (figures only):\n${checkReport}\n`);
    doc = replaceSection(doc, 'independent-check', checkReport);
  }
  writeFileSync(DOC, doc);
  log(`wrote the ${record} figures to docs/tool-quality.md`);
  if (record === 'after') {
    const broken = brokenFloors(figures, parseFloors(doc));
    if (broken.length > 0) throw new Error(`below the floors of docs/tool-quality.md:\n${broken.join('\n')}`);
    log('every floor of docs/tool-quality.md holds');
  }
}

/**
 * The dev part alone, through the same tools: the figures of the cases beside the code and the floors they
 * cross, the dev figures, then a line per practice (the relevant standards' ranks, what the report says of each
 * clause the practice violates and of every other clause it calls `at_risk`) and per term or role look-up not
 * answered first (its first five answers), and last the check part's figures alone. Test cases are filtered out as
 * the file is loaded and never printed; check cases are measured, never printed.
 */
async function diagnoseDev(callTool) {
  const dev = loadPart('dev');
  if (!dev) throw new Error('no independent cases');
  const answers = [];
  const recording = async (name, args) => {
    const output = await callTool(name, args);
    answers.push(output);
    return output;
  };
  const { figures, misses } = await runEval(dev, recording);
  const beside = await runEval(loadCases(), callTool);
  const check = withoutCheck ? null : loadPart('check');
  const checkRun = check && (await runEval(check, callTool));
  const broken = brokenFloors(beside.figures, parseFloors(readFileSync(DOC, 'utf8')));
  const lines = [];
  let at = 0;
  for (const c of dev.alignment) {
    const standards = answers[at++]?.standards ?? [];
    const ranked = standards.map((s) => String(s.citation).split('@')[0]);
    const claims = new Map();
    for (const s of standards)
      for (const clause of s.clauses ?? []) claims.set(`${String(s.citation).split('@')[0]}#${clause.clauseId}`, clause);
    const ranks = c.relevant.map((id) => `${id}:${ranked.indexOf(id) + 1 || '-'}`);
    const violated = c.violates.map((id) => `${id}=${claims.get(id)?.status ?? 'absent'}`);
    const alarms = [...claims]
      .filter(([id, clause]) => clause.status === 'at_risk' && !c.violates.includes(id))
      .map(([id, clause]) => `${id}(${clause.basis ?? ''})`);
    lines.push(
      `ALIGN ${c.id} ranks ${ranks.join(' ')} answered ${ranked.join(',')} | violates ${violated.join(' ') || '-'} | other at_risk ${alarms.join(' ') || '-'}\n  ${c.practice}`,
    );
  }
  for (const c of dev.terms) {
    const matches = (answers[at++]?.matches ?? []).map((m) => m.termId);
    if (matches[0] !== undefined && c.expected.includes(matches[0])) continue;
    lines.push(`TERM ${c.id} "${c.text}" expected ${c.expected.join('|')} got ${matches.join(',') || 'nothing'}`);
  }
  for (const c of dev.roles) {
    const roles = (answers[at++]?.roles ?? []).map((r) => `${r.role}:${r.score}`);
    if (roles[0]?.startsWith(`${c.expected}:`)) continue;
    lines.push(`ROLE ${c.id} expected ${c.expected} got ${roles.join(',')}\n  ${c.description}`);
  }
  process.stdout.write(
    `The cases beside the code:\n${figuresTable(beside.figures)}\nFloors crossed: ${broken.join('; ') || 'none'}\n\n` +
      `Dev part:\n${figuresTable(figures)}\n\nCases missed: ${misses.join(', ')}\n\n${lines.join('\n')}\n` +
      (checkRun ? `\nCheck part (figures only):\n${figuresTable(checkRun.figures)}\n` : ''),
  );
}

/** The commit measured: HEAD, marked when the work tree differs from it. */
function commitNow() {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' (changed)' : ''}`;
  } catch {
    return 'unknown';
  }
}

run(main);
