// Baseline for registry-read.bench.mjs: a bare node:http server that replays the responses captured from
// standards-api (same status, headers and body bytes), answering If-None-Match equal to the ETag with 304.
// Usage: node tools/bench/bare-server.mjs <fixture.json> <port>
// Fixture: { "<path>": { "etag", "ok": { "headers": [[name, value]], "body": "<base64>" }, "notModified": { "headers" } } }
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [fixturePath, port] = process.argv.slice(2);

const routes = new Map(
  Object.entries(JSON.parse(readFileSync(fixturePath, 'utf8'))).map(([path, route]) => [
    path,
    { etag: route.etag, ok: { headers: route.ok.headers, body: Buffer.from(route.ok.body, 'base64') }, notModified: route.notModified },
  ]),
);

function send(response, statusCode, headers, body) {
  response.statusCode = statusCode;
  for (const [name, value] of headers) response.setHeader(name, value);
  response.end(body);
}

http
  .createServer((request, response) => {
    const route = routes.get(request.url);
    if (!route) send(response, 404, []);
    else if (request.headers['if-none-match'] === route.etag) send(response, 304, route.notModified.headers);
    else send(response, 200, route.ok.headers, route.ok.body);
  })
  .listen(Number(port), '127.0.0.1');
