import { requestShapeAnswer } from './request-shape';

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('the shape of requests', () => {
  it('answers a malformed request with -32602 naming the field', () => {
    expect(requestShapeAnswer({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 7 } })).toMatchObject({
      id: 1,
      error: { code: -32602, message: expect.stringContaining('params.uri') },
    });
    expect(requestShapeAnswer(ping(1))).toBeNull();
  });

  it('refuses a whole batch with a malformed request in it: its error, and "not processed" for every other request', () => {
    const answer = requestShapeAnswer([
      { jsonrpc: '2.0', id: 'a', method: 'initialize', params: {} },
      ping(2),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(answer).toEqual([
      {
        jsonrpc: '2.0',
        id: 'a',
        error: { code: -32602, message: expect.stringContaining('Invalid params for initialize: params.protocolVersion') },
      },
      { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'Not processed: another request of this batch has invalid params.' } },
    ]);
  });

  it('lets a batch of well-formed requests through', () => {
    expect(requestShapeAnswer([ping(1), ping(2)])).toBeNull();
  });
});
