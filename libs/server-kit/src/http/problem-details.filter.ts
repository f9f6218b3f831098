import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCode, PROBLEM_TYPE_BASE, type FieldError, type ProblemDetails } from '@stdreg/contracts';
import { DomainError, httpStatusFor, titleFor } from './domain-error';
import { currentRequestId } from '../logging/request-context';
import type { JsonLogger } from '../logging/json-logger';

/** Turns every error into RFC 9457 problem details; unknown errors become a 500 that reveals nothing. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(private readonly logger: JsonLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    sendProblem(response, this.problemOf(exception, host.switchToHttp().getRequest<Request>()));
  }

  /** What an error is to the caller (an unknown one logged, and told as a 500 that reveals nothing); for answers other than problem details. */
  problemOf(exception: unknown, request: Request): DomainError {
    const error = this.toDomainError(exception, request);
    if (error.code === ErrorCode.InternalError) {
      this.logger.error(exception instanceof Error ? exception : String(exception), 'ProblemDetailsFilter');
    }
    return error;
  }

  private toDomainError(exception: unknown, request: Request): DomainError {
    if (exception instanceof DomainError) return exception;
    if (exception instanceof HttpException) return fromHttpException(exception, request);
    if (isConcurrencyFailure(exception)) {
      return new DomainError(ErrorCode.Conflict, 'A concurrent change conflicted with this request; nothing was written. Retry it.');
    }
    if (isStatementTimedOut(exception)) {
      return DomainError.of(
        'database.timed_out',
        'The database did not finish this request in time (a statement ran past its bound or waited too long for a lock); nothing was written. Retry it (with the same Idempotency-Key).',
        { headers: { 'Retry-After': '1' } },
      );
    }
    if (isConnectionLost(exception)) {
      return new DomainError(
        ErrorCode.ServiceUnavailable,
        'The database could not be reached, or the connection to it was lost, while this request ran. Retry it (with the same Idempotency-Key).',
        undefined,
        { 'Retry-After': '1' },
      );
    }
    if (isDataException(exception)) {
      this.logger.event(
        'warn',
        'a database data exception reached the filter: an input the policy did not refuse',
        { sqlState: sqlStateOf(exception) },
        'ProblemDetailsFilter',
      );
      return new DomainError(
        ErrorCode.ValidationFailed,
        'A value in the request is outside what the platform can store; nothing was written.',
      );
    }
    const status = statusOf(exception);
    if (status === 413) return new DomainError(ErrorCode.PayloadTooLarge, 'The request body is too large.');
    if (status === 400) return new DomainError(ErrorCode.ValidationFailed, 'The request body is not valid JSON.');
    if (status === 415) return new DomainError(ErrorCode.UnsupportedMediaType, 'Unsupported content type.');
    return new DomainError(ErrorCode.InternalError, 'An unexpected error occurred.');
  }
}

/** A problem is data, never a page: not sniffed as another type, not framed, nothing in it run or loaded. */
export const PROBLEM_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

/** An error as problem details: its status, its headers (its own, then PROBLEM_HEADERS) and its JSON text. */
export function problemAnswer(error: DomainError): { status: number; headers: Record<string, string>; body: string } {
  const status = httpStatusFor(error.code);
  const body: ProblemDetails & Record<string, unknown> = {
    ...error.extensions,
    type: PROBLEM_TYPE_BASE + error.code,
    title: titleFor(error.code),
    status,
    detail: error.detail,
    code: error.code,
    ...(error.domainCode ? { domainCode: error.domainCode } : {}),
    ...(error.errors && error.errors.length > 0 ? { errors: error.errors } : {}),
  };
  const requestId = currentRequestId();
  if (requestId) body.requestId = requestId;
  return { status, headers: { ...error.headers, ...PROBLEM_HEADERS }, body: JSON.stringify(body) };
}

export function sendProblem(response: Response, error: DomainError): void {
  const problem = problemAnswer(error);
  for (const [name, value] of Object.entries(problem.headers)) response.setHeader(name, value);
  response.status(problem.status).type('application/problem+json').send(problem.body);
}

/** The answer for a request no route took (`No route for GET /x.`). */
export function routeNotFound(method: string, originalUrl: string): DomainError {
  return new DomainError(ErrorCode.RouteNotFound, `No route for ${method} ${originalUrl.split('?')[0]}.`);
}

function fromHttpException(exception: HttpException, request: Request): DomainError {
  const status = exception.getStatus();
  switch (status) {
    case 404:
      return routeNotFound(request.method, request.originalUrl);
    case 405:
      return new DomainError(ErrorCode.MethodNotAllowed, `${request.method} is not allowed here.`);
    case 413:
      return new DomainError(ErrorCode.PayloadTooLarge, 'The request body is too large.');
    case 415:
      return new DomainError(ErrorCode.UnsupportedMediaType, 'Unsupported content type.');
    case 400:
      return new DomainError(ErrorCode.ValidationFailed, messageOf(exception), fieldErrorsOf(exception));
    case 401:
      return new DomainError(ErrorCode.Unauthenticated, 'A valid credential is required.');
    case 403:
      return new DomainError(ErrorCode.Forbidden, 'Not allowed.');
    case 409:
      return new DomainError(ErrorCode.Conflict, messageOf(exception));
    case 412:
      return new DomainError(ErrorCode.PreconditionFailed, messageOf(exception));
    case 429:
      return new DomainError(ErrorCode.RateLimited, messageOf(exception));
    default:
      return new DomainError(
        status >= 500 ? ErrorCode.InternalError : ErrorCode.ValidationFailed,
        status >= 500 ? 'An unexpected error occurred.' : messageOf(exception),
      );
  }
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return typeof message === 'string' ? message : 'The request is invalid.';
}

function fieldErrorsOf(exception: HttpException): FieldError[] | undefined {
  const message = (exception.getResponse() as { message?: unknown }).message;
  return Array.isArray(message) ? message.map((m) => ({ field: '', message: String(m) })) : undefined;
}

// PostgreSQL aborts one side of a deadlock (40P01) or a serialization conflict (40001); its
// transaction is rolled back, so the client may simply retry.
const CONCURRENCY_FAILURES = new Set(['40P01', '40001']);

function sqlStateOf(exception: unknown): unknown {
  return (
    (exception as { code?: unknown; driverError?: { code?: unknown } } | null)?.driverError?.code ??
    (exception as { code?: unknown } | null)?.code
  );
}

function isConcurrencyFailure(exception: unknown): boolean {
  const code = sqlStateOf(exception);
  return typeof code === 'string' && CONCURRENCY_FAILURES.has(code);
}

// PostgreSQL cancelled the statement: 57014 query_canceled (statement_timeout, see DATABASE_STATEMENT_TIMEOUT_MS)
// or 55P03 lock_not_available (lock_timeout, NOWAIT). The transaction is rolled back; the database is there but busy.
const STATEMENT_TIMED_OUT = new Set(['57014', '55P03']);

function isStatementTimedOut(exception: unknown): boolean {
  const code = sqlStateOf(exception);
  return typeof code === 'string' && STATEMENT_TIMED_OUT.has(code);
}

// The server ended the session (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now),
// class 08 (connection exception), or node-postgres found the socket gone or could not open one. The
// request's transaction cannot commit after that; only a commit cut short leaves its outcome unknown,
// which is what the Idempotency-Key of a retry is for. pg-pool's own time limit (POOL_CONNECTION_WAIT_MS) is
// met before a statement is sent.
const SESSION_ENDED = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE']);
const RUNNER_RELEASED = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);
const SOCKET_GONE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

function isConnectionLost(exception: unknown): boolean {
  // TypeORM releases a query runner when its connection reports an error; the transaction's next
  // statement (its COMMIT, or a query through the transaction's manager) then fails with one of these
  // before anything is sent. By name: the filter serves the gateway too, which has no database and does
  // not load TypeORM.
  if (exception instanceof Error && RUNNER_RELEASED.has(exception.name)) return true;
  const code = sqlStateOf(exception);
  if (typeof code === 'string' && (SESSION_ENDED.has(code) || (code.length === 5 && code.startsWith('08')))) return true;
  const driverMessage = (exception as { driverError?: { message?: unknown } } | null)?.driverError?.message;
  const message = typeof driverMessage === 'string' ? driverMessage : exception instanceof Error ? exception.message : '';
  return SOCKET_GONE.test(message);
}

/**
 * PostgreSQL's class 22, "data exception": a value the database cannot hold (a number out of range, an
 * impossible date, a NUL in text). Only a request's input brings one; the input policy and the DTOs
 * refuse them first, and this keeps any they miss a 400 instead of a 500.
 */
function isDataException(exception: unknown): boolean {
  const code = sqlStateOf(exception);
  return typeof code === 'string' && code.length === 5 && code.startsWith('22');
}

function statusOf(exception: unknown): number | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const status = (exception as { status?: unknown; statusCode?: unknown }).status ?? (exception as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}
