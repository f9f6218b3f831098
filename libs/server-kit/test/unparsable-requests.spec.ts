import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { answerUnparsableRequests } from '../src/http/unparsable-requests';

let server: Server;

beforeAll(async () => {
  server = createServer((_request, response) => response.end('ok'));
  answerUnparsableRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * A raw connection to the server and everything it answers until the connection closes. A reset once the server has
 * answered (the client still sending what the server will not read) ends it as a close does: what came is the answer.
 */
function rawConnection(options: { allowHalfOpen?: boolean; port?: number } = {}): { socket: Socket; answer: Promise<string> } {
  const socket = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', ...options });
  const answer = new Promise<string>((resolve, reject) => {
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
    );
    socket.on('close', () => resolve(received));
  });
  return { socket, answer };
}

/** Writes raw bytes and reads everything the server answers until it closes. */
function exchange(raw: string): Promise<string> {
  const { socket, answer } = rawConnection();
  socket.write(raw);
  return answer;
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

describe('requests the HTTP parser refuses', () => {
  it('answers headers past the limit with 431 problem details', async () => {
    const answer = await exchange(`GET / HTTP/1.1\r\nhost: x\r\nx-long: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
    expect(bodyOf(answer)).toMatchObject({ status: 431, code: 'headers_too_large' });
  });

  it('answers headers past the limit while the client is still sending a large body, and lets it read the answer', async () => {
    // As many HTTP clients do, the answer is read only once the whole request is sent: a server that resets the
    // connection while the body is still coming discards the answer before it is read.
    const { socket, answer: answered } = rawConnection();
    socket.pause();
    const chunk = 'x'.repeat(64 * 1024);
    let sent = 0;
    const sendMore = () => {
      // A chunk at a time, each after the last was taken, as a client on another machine sends it.
      while (sent < 6 * 1024 * 1024 && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', () => setTimeout(sendMore, 1));
      }
      socket.end();
      socket.resume();
    };
    socket.write(`POST / HTTP/1.1\r\nhost: x\r\nauthorization: ${'a'.repeat(20_000)}\r\ncontent-length: ${6 * 1024 * 1024}\r\n\r\n`);
    setTimeout(sendMore, 1);
    const answer = await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(answer)).toMatchObject({ status: 431, code: 'headers_too_large' });
  });

  it('closes a refused connection whose client never stops sending, a few seconds after the answer', async () => {
    const started = Date.now();
    // Half open: the server's end of the answer does not end the client's sending.
    const { socket, answer: answered } = rawConnection({ allowHalfOpen: true });
    const sending = setInterval(() => socket.write('x'.repeat(1024)), 10);
    socket.write(`POST / HTTP/1.1\r\nhost: x\r\nx-long: ${'a'.repeat(20_000)}\r\ncontent-length: 100000000\r\n\r\n`);
    const answer = await answered.finally(() => clearInterval(sending));
    const closedAfter = Date.now() - started;
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(closedAfter).toBeGreaterThanOrEqual(4_000);
    expect(closedAfter).toBeLessThan(12_000);
  }, 20_000);

  it('answers bytes that are not HTTP with 400 problem details', async () => {
    const answer = await exchange('NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer)).toMatchObject({ status: 400, code: 'validation_failed', title: 'Invalid request' });
  });

  it('still serves a well-formed request', async () => {
    expect(await exchange('GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 [\s\S]*ok$/);
  });
});

describe('requests not received in time', () => {
  let slowServer: Server;
  let bodiesReceived = 0;

  beforeAll(async () => {
    // Node's own bounds (60 s for the headers, 300 s for the whole request, checked every 30 s), made short.
    slowServer = createServer({ headersTimeout: 500, requestTimeout: 1_000, connectionsCheckingInterval: 100 }, (request, response) => {
      request.resume();
      request.on('end', () => {
        bodiesReceived++;
        response.end('ok');
      });
    });
    answerUnparsableRequests(slowServer);
    await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => slowServer.close(() => resolve())));

  /** Sends `head`, then a byte at a time, never finishing the request, and reads what the server answers. */
  async function trickle(head: string): Promise<string> {
    const { socket, answer } = rawConnection({ port: (slowServer.address() as AddressInfo).port });
    socket.write(head);
    const sending = setInterval(() => socket.write('x'), 50);
    return answer.finally(() => clearInterval(sending));
  }

  it('answers a body sent too slowly with 408 problem details, and the route never has it', async () => {
    const answer = await trickle('POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer)).toMatchObject({ status: 408, code: 'request_timeout', title: 'Request timeout' });
    expect(bodiesReceived).toBe(0);
  });

  it('answers headers sent too slowly with 408 problem details', async () => {
    const answer = await trickle('GET / HTTP/1.1\r\nhost: x\r\nx-slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer)).toMatchObject({ status: 408, code: 'request_timeout' });
  });
});
