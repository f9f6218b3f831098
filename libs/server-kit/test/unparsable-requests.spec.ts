import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerUnparsableRequests } from '../src/http/unparsable-requests';

let server: Server;

beforeAll(async () => {
  server = createServer((_request, response) => response.end('ok'));
  answerUnparsableRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Writes raw bytes and reads everything the server answers until it closes. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(raw);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

describe('requests the HTTP parser refuses', () => {
  it('answers headers past the limit with 431 problem details', async () => {
    const answer = await exchange(`GET / HTTP/1.1\r\nhost: x\r\nx-long: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
    expect(bodyOf(answer)).toMatchObject({ status: 431, code: 'headers_too_large' });
  });

  it('answers bytes that are not HTTP with 400 problem details', async () => {
    const answer = await exchange('NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer)).toMatchObject({ status: 400, code: 'validation_failed', title: 'Invalid request' });
  });

  it('still serves a well-formed request', async () => {
    expect(await exchange('GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 [\s\S]*ok$/);
  });
});
