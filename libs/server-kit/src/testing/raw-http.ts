import { connect } from 'node:net';

/** A raw HTTP answer: its status and its body, read until the server closes the connection. */
export interface RawHttpAnswer {
  status: number;
  body: string;
}

/**
 * Writes `request` as it stands (bytes no HTTP client would send, such as a header field twice) and reads the
 * whole answer. The request should say `Connection: close`.
 */
export function rawHttpExchange(port: number, request: string): Promise<RawHttpAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, body: received.slice(received.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(request);
  });
}
