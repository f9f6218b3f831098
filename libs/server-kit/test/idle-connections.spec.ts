import type { NestExpressApplication } from '@nestjs/platform-express';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createServiceApp, loadConfig } from '../src';
import { EXAMPLE_SERVICE, ExampleConfig } from './support/example-service';

// A client that keeps a connection idle longer than Node's default 5 s (a proxy, or a pool whose event loop
// was busy) must find it still open: otherwise its next request dies with "other side closed".

let app: NestExpressApplication;
let port: number;

beforeAll(async () => {
  app = await createServiceApp(EXAMPLE_SERVICE, loadConfig(ExampleConfig, { LOG_LEVEL: 'warn' }));
  await app.listen(0, '127.0.0.1');
  port = (app.getHttpServer().address() as AddressInfo).port;
});
afterAll(() => app.close());

/** Sends one keep-alive request on the socket and reads its whole response (status line and headers, then the declared body). */
function exchange(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const onData = (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      const headEnd = answer.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(answer);
      if (headEnd >= 0 && length && answer.length >= headEnd + 4 + Number(length[1])) {
        socket.off('data', onData);
        resolve(answer);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n\r\n`);
  });
}

it('keeps an idle keep-alive connection open past five seconds, and says for how long', async () => {
  const socket = connect(port, '127.0.0.1');
  let closedByServer = false;
  socket.on('end', () => (closedByServer = true));
  try {
    const first = await exchange(socket, '/api/items/first');
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toMatch(/\r\nkeep-alive: timeout=65\r\n/i);

    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(closedByServer).toBe(false);
    expect(await exchange(socket, '/api/items/second')).toMatch(/^HTTP\/1\.1 200 /);
  } finally {
    socket.destroy();
  }
}, 20_000);
