// The floor for the decision benchmark: node:http alone, with no framework, database or policy. It
// reads and parses a JSON body and answers a decision-sized JSON object, so measured under the same
// paced load in the same run it shows the latency this machine allows any Node service at that moment.
// usage: node bare-http-server.mjs <port>
import http from 'node:http';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: node bare-http-server.mjs <port>');
  process.exit(2);
}

const ANSWER = JSON.stringify({
  decision: 'allow',
  reason: 'organization_key',
  subject: {
    kind: 'app_key',
    id: '01900000-0000-7000-8000-000000000001',
    keyPrefix: 'aaaaaaaaaa',
    organizationId: '01900000-0000-7000-8000-00000000000a',
  },
});

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.url === '/readyz') return res.end('ok');
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(ANSWER) });
    res.end(ANSWER);
  });
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
