// Issue 30's memory figures for standards-api, two builds in one run: the built standards-api
// (dist/apps/standards-api) and a baseline build (`--baseline <its dist folder>`, e.g. the commit before a
// change, built and copied aside), each on a PostgreSQL database of its own holding the same full-size pack
// (`--pack <folder>`, or generated as scale.bench.mjs's full registry: 5 000 blocks, 100 000 terms, seed 21),
// imported by its own build's import-content. For each: start to ready (the manifest answers), RSS after
// loading, every page of every list (100 a page) and a spread of items, term searches and POST /search
// compared byte for byte between the two (ETags and status included; error bodies without their requestId),
// RSS after those reads (the reads that find the URLs are asked of both servers too: asked of the new one
// alone, they left it about 35 MB more of glibc's free heap than the baseline, whatever the builds), then a
// release switch: the same pack as another pack version imported while it serves, RSS sampled every 200 ms
// (and the kernel's peak, reset first) until it serves the new release, with the reads that failed or waited
// meanwhile. Servers on CPU 0 (one at a time while loading), this script wherever. Run from the repository
// root (`npm run bench:registry-memory -- --baseline <dir>` builds first):
//   node tools/bench/registry-release-memory.bench.mjs --baseline dist/baseline-standards-api [--pack dir]
// `--new-env NAME=VALUE` (repeatable) sets a variable for this build's server only, e.g. `--baseline` the same
// build and `--new-env MALLOC_ARENA_MAX=2` to weigh a setting against none in one run.
// Each server loads tools/bench/memory-probe.mjs, so every step also records what its memory is made of
// (process.memoryUsage(), V8's heap spaces, anonymous and file-backed RSS); the RSS 3 s after the reads (both
// idle) is recorded beside the RSS right after them. (Not during a switch: the probe answers only between the
// build's steps, after the peak.)
// Writes tools/bench/results/registry-release-memory.json; asserts nothing about time or memory, fails if
// the two builds answer any read differently.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './bench-kit.mjs';

const { values: options } = parseArgs({
  options: { baseline: { type: 'string' }, pack: { type: 'string' }, 'new-env': { type: 'string', multiple: true } },
});
const newEnv = Object.fromEntries(
  (options['new-env'] ?? []).map((pair) => {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--new-env ${pair}: expected NAME=VALUE`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);
if (!options.baseline) throw new Error('--baseline <dist folder of the baseline build> is required');
const oldDist = path.resolve(options.baseline);
const newDist = path.join(ROOT, 'dist/apps/standards-api');
let packDir = options.pack ? path.resolve(options.pack) : null;
if (!packDir) {
  const { generateRegistryPack } = await import('../scale/registry-pack-generator.mjs');
  packDir = path.join(os.tmpdir(), `registry-release-memory-${process.pid}`);
  generateRegistryPack({
    directory: packDir,
    samplePackDirectory: path.join(ROOT, 'libs/registry-content/pack'),
    seed: 21,
    standards: 5_000,
    versions: 3,
    terms: 100_000,
    tasks: 1_000,
    policies: 1_000,
  });
}
const PG = process.env.PG_URL || 'postgres://postgres@127.0.0.1:5432';
const log = (...a) => console.log(new Date().toISOString().slice(11, 19), ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

function psql(db, sql) {
  const r = spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', db, '-tAc', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

function get(port, path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: body ? 'POST' : 'GET', headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, etag: res.headers.etag, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

function importPack(dist, db, dir) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [`${dist}/import-content.js`, dir], {
    env: { ...process.env, DATABASE_URL: `${PG}/${db}`, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(r.stdout + r.stderr);
  log(`import ${dist} -> ${db}: ${r.stdout.trim()} ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

const PROBE = path.join(import.meta.dirname, 'memory-probe.mjs');
/** What a server's memory is made of now (tools/bench/memory-probe.mjs), or null when its probe does not answer. */
async function breakdownOf(server) {
  try {
    return JSON.parse((await get(server.port + 1000, '/memory')).body);
  } catch {
    return null;
  }
}

async function start(name, dist, db, port, extraEnv = {}) {
  const t = performance.now();
  const child = spawn('taskset', ['-c', '0', process.execPath, `${dist}/main.js`], {
    env: {
      ...process.env,
      DATABASE_URL: `${PG}/${db}`,
      STANDARDS_API_PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      EVENT_RELAY: 'off',
      CONTENT_AUTO_IMPORT: 'false',
      CONTENT_REFRESH_SECONDS: '5',
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${PROBE}`].filter(Boolean).join(' '),
      MEMORY_PROBE_PORT: String(port + 1000),
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  servers.push(child);
  for (;;) {
    await sleep(250);
    try {
      const r = await get(port, '/api/v2/manifest');
      if (r.status === 200) break;
    } catch {}
  }
  const seconds = (performance.now() - t) / 1000;
  // taskset execs node: same pid.
  const mem = memoryOf(child.pid);
  log(`${name}: ready in ${seconds.toFixed(1)} s, RSS ${mem.rss} MB (peak ${mem.peak})`);
  const breakdown = await breakdownOf({ port });
  log(`${name}: after loading`, JSON.stringify(breakdown));
  return { name, child, port, pid: child.pid, readySeconds: seconds, afterLoad: { ...mem, breakdown } };
}

async function walk(ask, list) {
  const pages = [];
  let cursor = null;
  do {
    const path = `/api/v2/${list}?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
    const r = await ask(path);
    pages.push(path);
    cursor = JSON.parse(r.body).nextCursor;
  } while (cursor);
  return pages;
}

const main = async () => {
  const dbOld = `release_memory_baseline_${process.pid}`;
  const dbNew = `release_memory_build_${process.pid}`;
  for (const db of [dbOld, dbNew]) psql('postgres', `CREATE DATABASE ${db}`);
  importPack(oldDist, dbOld, packDir);
  importPack(newDist, dbNew, packDir);
  const result = {};
  const old = await start('old', oldDist, dbOld, 4101);
  await sleep(5000);
  const neu = await start('new', newDist, dbNew, 4102, newEnv);
  result.ready = { old: old.readySeconds, new: neu.readySeconds };
  result.afterLoad = { old: old.afterLoad, new: neu.afterLoad };

  // The URLs: every page of every list (100 a page), then items and searches. Each read that finds them is asked of
  // both servers (the new one's answer used), so that both have served the same reads when their memory is compared.
  const askBoth = async (u) => {
    await get(old.port, u);
    return get(neu.port, u);
  };
  const lists = ['standards', 'terms', 'tasks', 'policies', 'roles', 'split-templates'];
  const urls = [];
  for (const list of lists) urls.push(...(await walk(askBoth, list)));
  const sections = [];
  for (const u of urls.filter((u) => u.includes('/standards?')))
    sections.push(...JSON.parse((await askBoth(u)).body).items.map((s) => s.sectionId));
  const termNames = [];
  for (const u of urls.filter((u) => u.includes('/terms?')).filter((_, i) => i % 50 === 0))
    termNames.push(
      ...JSON.parse((await askBoth(u)).body)
        .items.slice(0, 2)
        .map((t) => t.term),
    );
  for (let i = 0; i < sections.length; i += 25) {
    for (const lang of ['', '?lang=en', '?lang=zh-Hans']) urls.push(`/api/v2/standards/${sections[i]}${lang}`);
    urls.push(`/api/v2/standards/${sections[i]}?version=1.0`);
  }
  for (let i = 0; i < 1000; i += 37)
    urls.push(`/api/v2/tasks/TSK-${String(i).padStart(3, '0')}`, `/api/v2/tasks/TSK-${String(i).padStart(3, '0')}?lang=zh-Hans`);
  for (const u of urls.filter((u) => u.includes('/policies?')).slice(0, 3)) {
    for (const p of JSON.parse((await askBoth(u)).body).items.slice(0, 30))
      urls.push(
        `/api/v2/policies/${p.policyId}`,
        `/api/v2/policies/${p.policyId}?at=2025-06-01`,
        `/api/v2/policies/${p.policyId}?version=1.0&lang=en`,
      );
  }
  for (const name of termNames)
    urls.push(
      `/api/v2/terms?limit=50&q=${encodeURIComponent(name.en)}`,
      `/api/v2/terms?limit=50&q=${encodeURIComponent(name['zh-Hans'])}&lang=zh-Hans`,
    );
  urls.push(
    '/api/v2/terms?q=settlement&limit=50',
    '/api/v2/terms?q=ledger',
    '/api/v2/brand/current',
    '/api/v2/split-templates/1.0',
    '/api/v2/roles/settlement-approver',
  );
  urls.push('/api/v2/standards/ZZZ-999', `/api/v2/standards/${sections[0]}?version=9.9`, '/api/v2/tasks/TSK-999x', '/api/v2/policies/none');
  const searches = [
    { q: 'Idempotency key', in: 'terms', limit: 5 },
    { q: '幂等键', in: 'terms', limit: 5 },
    { q: termNames.at(-1).en, in: 'terms', limit: 5 },
    { q: 'someone who approves settlement runs and signs payment instructions', in: 'roles', limit: 3 },
    {
      q: 'Our AI agent releases payments automatically every Friday; nobody signs off on them, and the same analyst prepares and approves the settlement run. The equity ledger is reconciled once a year.',
      in: 'standards',
      limit: 5,
    },
    { q: '我们的AI助手每周五自动付款，没有人审批；结算批次由同一名分析师编制并审批。股权账簿每年核对一次。', in: 'standards', limit: 5 },
  ];
  log(`${urls.length} URLs and ${searches.length} searches, both servers`);
  let same = 0;
  const differ = [];
  for (const u of urls) {
    const [a, b] = [await get(old.port, u), await get(neu.port, u)];
    const bodyA = a.status === 200 ? a.body.toString() : JSON.stringify({ ...JSON.parse(a.body), requestId: 0 });
    const bodyB = b.status === 200 ? b.body.toString() : JSON.stringify({ ...JSON.parse(b.body), requestId: 0 });
    if (a.status === b.status && a.etag === b.etag && bodyA === bodyB) same++;
    else differ.push({ u, a: [a.status, a.etag, bodyA.slice(0, 200)], b: [b.status, b.etag, bodyB.slice(0, 200)] });
  }
  for (const s of searches) {
    const [a, b] = [await get(old.port, '/api/v2/search', s), await get(neu.port, '/api/v2/search', s)];
    if (a.status === b.status && a.body.equals(b.body)) same++;
    else differ.push({ s: s.q, a: a.body.toString().slice(0, 300), b: b.body.toString().slice(0, 300) });
  }
  // The manifest: the same but for the time of its import.
  const norm = (m) => JSON.stringify({ ...JSON.parse(m), provenance: { ...JSON.parse(m).provenance, importedAt: 0 } });
  const [ma, mb] = [await get(old.port, '/api/v2/manifest'), await get(neu.port, '/api/v2/manifest')];
  if (norm(ma.body) === norm(mb.body)) same++;
  else differ.push({ u: 'manifest', a: ma.body.toString(), b: mb.body.toString() });
  log(`identical: ${same}, different: ${differ.length}`);
  if (differ.length) result.differences = differ.slice(0, 50);
  result.compared = { identical: same, different: differ.length, urls: urls.length + searches.length + 1 };
  result.afterReads = { old: memoryOf(old.pid), new: memoryOf(neu.pid) };
  log('after reads', result.afterReads);
  result.afterReadsBreakdown = { old: await breakdownOf(old), new: await breakdownOf(neu) };
  log('after reads, what it is', JSON.stringify(result.afterReadsBreakdown));
  await sleep(3000);
  result.afterReadsIdle3s = { old: memoryOf(old.pid), new: memoryOf(neu.pid) };
  result.afterReadsIdle3sBreakdown = { old: await breakdownOf(old), new: await breakdownOf(neu) };
  log('after reads and 3 s idle', JSON.stringify(result.afterReadsIdle3sBreakdown));

  // A release switch: the same pack as another version, imported while each serves.
  const switched = path.join(os.tmpdir(), `registry-release-memory-switch-${process.pid}`);
  rmSync(switched, { recursive: true, force: true });
  cpSync(packDir, switched, { recursive: true });
  const meta = JSON.parse(readFileSync(`${switched}/pack.json`, 'utf8'));
  meta.packVersion = meta.packVersion.replace(/\.(\d+)$/, (_, patch) => `.${Number(patch) + 900}`);
  writeFileSync(`${switched}/pack.json`, JSON.stringify(meta, null, 2));
  result.switch = {};
  for (const [server, dist, db] of [
    [old, oldDist, dbOld],
    [neu, newDist, dbNew],
  ]) {
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const before = memoryOf(server.pid);
    importPack(dist, db, switched);
    const t = performance.now();
    let max = 0;
    let failed = 0;
    let slowest = 0;
    for (;;) {
      max = Math.max(max, memoryOf(server.pid).rss);
      const asked = performance.now();
      try {
        const m = JSON.parse((await get(server.port, '/api/v2/manifest')).body);
        if (m.provenance.packVersion === meta.packVersion) break;
      } catch {
        failed++;
      }
      slowest = Math.max(slowest, performance.now() - asked);
      await sleep(200);
    }
    await sleep(1000);
    const after = memoryOf(server.pid);
    result.switch[server.name] = {
      before: before.rss,
      maxSampled: Math.max(max, after.rss),
      peak: after.peak,
      after: after.rss,
      seconds: (performance.now() - t) / 1000,
      failedReads: failed,
      slowestReadMs: Math.round(slowest),
    };
    log(`switch ${server.name}`, result.switch[server.name]);
  }
  const resultsFile = path.join(import.meta.dirname, 'results/registry-release-memory.json');
  mkdirSync(path.dirname(resultsFile), { recursive: true });
  writeFileSync(
    resultsFile,
    JSON.stringify({ date: new Date().toISOString(), node: process.version, baseline: oldDist, newEnv, ...result }, null, 1),
  );
  console.log(JSON.stringify(result, null, 1));
  old.child.kill();
  neu.child.kill();
  await sleep(1000);
  for (const db of [dbOld, dbNew]) psql('postgres', `DROP DATABASE ${db} WITH (FORCE)`);
  rmSync(switched, { recursive: true, force: true });
  if (differ.length) throw new Error(`${differ.length} reads differ between the builds: see ${resultsFile}`);
};
const servers = [];
main().catch((e) => {
  console.error(e);
  for (const s of servers) s.kill();
  process.exit(1);
});
