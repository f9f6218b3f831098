import { withoutTaskAugmentation } from './task-augmentation';

describe('withoutTaskAugmentation', () => {
  it('drops params.task from a request and keeps everything else', () => {
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'resolve_term', arguments: { task: 'kept' }, task: { ttl: 5 } },
    };
    const plain = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'resolve_term', arguments: { task: 'kept' } } };
    expect(withoutTaskAugmentation(call)).toEqual(plain);
    expect(call.params.task).toEqual({ ttl: 5 });
  });

  it('leaves responses, malformed messages and requests without a task as they are', () => {
    const response = { jsonrpc: '2.0', id: 3, result: { task: {} } };
    for (const message of [response, null, 'text', { jsonrpc: '2.0', id: 4, method: 'ping', params: null }]) {
      expect(withoutTaskAugmentation(message)).toBe(message);
    }
  });
});
