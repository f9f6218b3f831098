import { batchAnswer, requestShapeAnswer } from './request-shape';

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('the shape of requests', () => {
  it('answers a malformed request with -32602 naming the field', () => {
    expect(requestShapeAnswer({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 7 } })).toMatchObject({
      id: 1,
      error: { code: -32602, message: expect.stringContaining('params.uri') },
    });
    expect(requestShapeAnswer(ping(1))).toBeNull();
  });

  it('answers a batch, of any messages or none, with -32600 and no id, and leaves one message and other media types alone', () => {
    for (const batch of [[ping(1), ping(2)], [ping(1)], [], [{ jsonrpc: '2.0', method: 'notifications/initialized' }]]) {
      expect(batchAnswer(batch, 'application/json')).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: expect.stringContaining('a JSON-RPC batch is not an MCP 2025-11-25 message') },
        id: null,
      });
    }
    expect(batchAnswer(ping(1), 'application/json; charset=utf-8')).toBeNull();
    expect(batchAnswer([ping(1)], 'text/plain')).toBeNull();
  });
});
