import type { ArgumentsHost } from '@nestjs/common';
import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { JsonLogger, ProblemDetailsFilter } from '../src';

/** What the filter answers for an error thrown by a request's handler. */
function answerTo(exception: unknown): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const answer = { status: 0, headers: {} as Record<string, string>, body: {} as Record<string, unknown> };
  const response = {
    setHeader: (name: string, value: string) => (answer.headers[name.toLowerCase()] = value),
    status: (status: number) => ((answer.status = status), response),
    type: () => response,
    send: (text: string) => (answer.body = JSON.parse(text) as Record<string, unknown>),
  };
  const host = { switchToHttp: () => ({ getResponse: () => response, getRequest: () => ({ method: 'POST', originalUrl: '/x' }) }) };
  new ProblemDetailsFilter(new JsonLogger('test', 'error')).catch(exception, host as unknown as ArgumentsHost);
  return answer;
}

const sqlError = (code: string, message: string) => new QueryFailedError('SELECT 1', [], Object.assign(new Error(message), { code }));

describe('a request whose database connection is lost', () => {
  it.each([
    ['the server ending the session (57P01)', sqlError('57P01', 'terminating connection due to administrator command')],
    ['a connection exception (08006)', sqlError('08006', 'connection failure')],
    ['the socket gone under a query', new Error('Connection terminated unexpectedly')],
    ['a client that already lost its connection', new Error('Client has encountered a connection error and is not queryable')],
    ['a transaction whose query runner TypeORM released after the connection error', new QueryRunnerAlreadyReleasedError()],
    ["a query through a transaction's manager after TypeORM released its runner", new QueryRunnerProviderAlreadyReleasedError()],
    ['no server to connect to', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  ])('answers 503 service_unavailable with Retry-After for %s', (_, exception) => {
    const answer = answerTo(exception);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.body).toMatchObject({ code: 'service_unavailable', detail: expect.stringContaining('Idempotency-Key') });
  });

  it('still answers 500 to an error it does not know', () => {
    expect(answerTo(new Error('something else')).status).toBe(500);
  });
});
