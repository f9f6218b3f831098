import { BadGatewayException, ConflictException, HttpException, NotAcceptableException, type ArgumentsHost } from '@nestjs/common';
import { ErrorCode } from '@stdreg/contracts';
import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { DomainError, JsonLogger, ProblemDetailsFilter } from '../src';

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
    ['no pooled connection free in time', new Error('timeout exceeded when trying to connect')],
  ])('answers 503 service_unavailable with Retry-After for %s', (_, exception) => {
    const answer = answerTo(exception);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.body).toMatchObject({ code: 'service_unavailable', detail: expect.stringContaining('Idempotency-Key') });
  });

  it.each([
    ['a statement cancelled by statement_timeout (57014)', sqlError('57014', 'canceling statement due to statement timeout')],
    ['a lock not obtained in time (55P03)', sqlError('55P03', 'canceling statement due to lock timeout')],
  ])('answers 503 database.timed_out with Retry-After for %s', (_, exception) => {
    const answer = answerTo(exception);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.body).toMatchObject({ code: 'service_unavailable', domainCode: 'database.timed_out' });
  });

  it('still answers 500 to an error it does not know', () => {
    expect(answerTo(new Error('something else')).status).toBe(500);
  });
});

describe('what a problem body reveals', () => {
  const SECRET = 'stdreg_app_k3y_Sup3rSecret whsec_abcdef password=hunter2';

  it('answers an unknown error with a fixed 500 detail, nothing of its message', () => {
    const answer = answerTo(new Error(`request to https://partner.example failed: Authorization: Bearer ${SECRET}`));
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ code: 'internal_error', detail: 'An unexpected error occurred.' });
    expect(JSON.stringify(answer.body)).not.toMatch(/Sup3rSecret|whsec_|hunter2|Bearer/);
  });

  it('answers a 5xx HttpException with the same fixed detail, not its message', () => {
    const answer = answerTo(new BadGatewayException(`upstream said ${SECRET}`));
    expect(answer.status).toBe(500);
    expect(answer.body['detail']).toBe('An unexpected error occurred.');
    expect(JSON.stringify(answer.body)).not.toMatch(/Sup3rSecret|whsec_|hunter2/);
  });

  it('keeps the standard members when an error carries extensions of the same names', () => {
    const error = new DomainError(ErrorCode.Conflict, 'The scenario changed.', undefined, undefined, {
      status: 200,
      code: 'ok',
      type: 'about:blank',
      title: 'Fine',
      detail: 'nothing happened',
      currentRevision: 4,
    });
    const answer = answerTo(error);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      status: 409,
      code: 'conflict',
      title: 'Conflict',
      detail: 'The scenario changed.',
      currentRevision: 4,
    });
    expect(answer.body['type']).toMatch(/conflict$/);
  });
});

describe('database failures a request can cause', () => {
  it.each([
    ['a serialization failure (40001)', '40001'],
    ['a deadlock (40P01)', '40P01'],
  ])('answers 409 conflict, nothing written, for %s', (_, code) => {
    const answer = answerTo(sqlError(code, 'could not serialize access due to concurrent update'));
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('nothing was written') });
  });

  it.each([
    ['a number out of range (22003)', '22003', 'value "99999999999999999999" is out of range for type bigint'],
    ['an impossible date (22008)', '22008', 'date/time field value out of range: "2026-02-30"'],
  ])('answers 400 validation_failed for %s, without echoing the value', (_, code, message) => {
    const answer = answerTo(sqlError(code, message));
    expect(answer.status).toBe(400);
    expect(answer.body['code']).toBe('validation_failed');
    expect(JSON.stringify(answer.body)).not.toMatch(/99999999999999999999|2026-02-30/);
  });
});

describe('errors the body parser raises before any route', () => {
  // body-parser's errors are plain errors carrying the status; either name of it is enough.
  const parserError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

  it.each([
    ['status', { status: 413 }, 413, 'payload_too_large'],
    ['statusCode', { statusCode: 413 }, 413, 'payload_too_large'],
    ['status', { status: 415 }, 415, 'unsupported_media_type'],
    ['statusCode', { statusCode: 415 }, 415, 'unsupported_media_type'],
    ['status', { status: 400 }, 400, 'validation_failed'],
  ])('answers one that names its status by %s (%j) with %d %s', (_, fields, status, code) => {
    const answer = answerTo(parserError('request entity too large', { ...fields, type: 'entity.too.large' }));
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ status, code });
  });

  it('answers one whose status is not a number with 500', () => {
    expect(answerTo(parserError('odd', { status: '413' })).status).toBe(500);
  });
});

describe('a 4xx HttpException the framework raises', () => {
  it('stays a client error with its own message, never a 500', () => {
    const notAcceptable = answerTo(new NotAcceptableException('Only application/json is served here.'));
    expect(notAcceptable.status).toBe(400);
    expect(notAcceptable.body).toMatchObject({ code: 'validation_failed', detail: 'Only application/json is served here.' });
    expect(answerTo(new HttpException('I am a teapot', 418)).status).toBe(400);
  });

  it.each([
    [409, 'conflict'],
    [412, 'precondition_failed'],
    [429, 'rate_limited'],
  ])('keeps %d, whose meaning has a code of its own, as %s', (status, code) => {
    const answer = answerTo(new HttpException('said by the framework', status));
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ code, detail: 'said by the framework' });
    expect(answerTo(new ConflictException('The row changed.')).body).toMatchObject({ status: 409, detail: 'The row changed.' });
  });
});
