// Compares two V8 heap snapshots of one process (e.g. taken with `--heapsnapshot-signal=SIGUSR2` after warm-up and
// near the end of a soak, docs/reliability.md): objects counted and their own sizes summed by type and constructor,
// the largest growth first. A snapshot holds only what a full collection left live, so what grows between two
// taken under the same traffic is what the process keeps.
//   node --max-old-space-size=4096 tools/bench/heap-snapshot-diff.mjs before.heapsnapshot after.heapsnapshot [rows]
import { readFileSync } from 'node:fs';

const GROUPED = { string: '(string)', 'concatenated string': '(string)', 'sliced string': '(string)', number: '(number)', code: '(code)' };

function summarize(file) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, 'utf8'));
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field));
  const groups = new Map();
  let objects = 0;
  let bytes = 0;
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]];
    const name = GROUPED[type] ?? strings[nodes[i + nameAt]].slice(0, 80);
    const key = `${type}\t${name}`;
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += nodes[i + sizeAt];
    groups.set(key, group);
    objects++;
    bytes += nodes[i + sizeAt];
  }
  return { groups, objects, bytes };
}

const [beforeFile, afterFile, rows = '30'] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: heap-snapshot-diff.mjs before.heapsnapshot after.heapsnapshot [rows]');
  process.exit(2);
}
const before = summarize(beforeFile);
const after = summarize(afterFile);
const mib = (value) => (value / 2 ** 20).toFixed(2);
console.log(`objects ${before.objects} -> ${after.objects}, their own sizes ${mib(before.bytes)} -> ${mib(after.bytes)} MiB`);
const none = { count: 0, bytes: 0 };
const changes = [...new Set([...before.groups.keys(), ...after.groups.keys()])].map((key) => {
  const [was, is] = [before.groups.get(key) ?? none, after.groups.get(key) ?? none];
  return { key, count: is.count - was.count, bytes: is.bytes - was.bytes, now: is };
});
for (const [title, by] of [
  ['by size grown', 'bytes'],
  ['by count grown', 'count'],
]) {
  console.log(`\n${title}`);
  for (const change of changes.sort((a, b) => b[by] - a[by]).slice(0, Number(rows)))
    console.log(
      `${(change.bytes / 1024).toFixed(1).padStart(10)} KiB ${String(change.count).padStart(8)} objects  (now ${change.now.count}, ${(change.now.bytes / 1024).toFixed(1)} KiB)  ${change.key}`,
    );
}
