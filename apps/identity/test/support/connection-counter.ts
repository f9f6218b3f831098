import { createServer, type AddressInfo } from 'node:net';

export interface ConnectionCounter {
  port: number;
  /** How many connections reached the listener so far. */
  count(): number;
  close(): Promise<void>;
}

/** A TCP listener on 127.0.0.1 that counts the connections it is offered and drops each: where a test proves nothing connected. */
export async function listenCountingConnections(): Promise<ConnectionCounter> {
  let connections = 0;
  const listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return {
    port: (listener.address() as AddressInfo).port,
    count: () => connections,
    close: () => new Promise<void>((resolve) => listener.close(() => resolve())),
  };
}
