// Loaded into a server by the memory benches (`NODE_OPTIONS=--import=…/memory-probe.mjs`, `MEMORY_PROBE_PORT`):
// answers GET /memory on 127.0.0.1 with what the process's memory is made of: process.memoryUsage(), V8's
// heap spaces (size and used) and the anonymous and file-backed parts of its RSS (/proc/self/smaps_rollup).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import v8 from 'node:v8';

const port = Number(process.env.MEMORY_PROBE_PORT || 0);
const mb = (bytes) => Math.round(bytes / 2 ** 17) / 8;

export function memoryBreakdown() {
  const usage = process.memoryUsage();
  const smaps = readFileSync('/proc/self/smaps_rollup', 'utf8');
  const kb = (field) => Number(smaps.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0) * 1024;
  const spaces = {};
  for (const space of v8.getHeapSpaceStatistics())
    spaces[space.space_name.replace(/_space$/, '')] = { size: mb(space.space_size), used: mb(space.space_used_size) };
  return {
    rss: mb(usage.rss),
    heapTotal: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    anonymous: mb(kb('Anonymous')),
    fileBacked: mb(kb('Rss') - kb('Anonymous')),
    spaces,
  };
}

if (port) {
  http
    .createServer((_request, response) => response.end(JSON.stringify(memoryBreakdown())))
    .listen(port, '127.0.0.1')
    .unref();
}
