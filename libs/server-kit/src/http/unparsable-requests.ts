// Requests Node's HTTP server refuses before any application code runs (a request line or headers past
// its limit, bytes that are not HTTP, a request not received within `headersTimeout`/`requestTimeout`):
// answered as problem details too, instead of Node's empty 400/408/431.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode, PROBLEM_TYPE_BASE, type ProblemDetails } from '@stdreg/contracts';
import { DomainError, httpStatusFor, titleFor } from './domain-error';

function refusalOf(error: NodeJS.ErrnoException): DomainError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new DomainError(ErrorCode.HeadersTooLarge, 'The request line and headers together are larger than the server accepts.');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new DomainError(ErrorCode.RequestTimeout, 'The request line, headers and body were not received in time.');
  }
  return new DomainError(ErrorCode.ValidationFailed, 'The request is not well-formed HTTP.');
}

/**
 * How long a refused connection is still read after its answer. A client may still be sending the request's body
 * (a 6 MB one behind 20 KB of headers): closing a connection with bytes unread resets it, and the reset discards the
 * answer before the client reads it. The parser refuses each later chunk too; they are read and dropped until the
 * client closes or this time has passed.
 */
const REFUSED_CONNECTION_LINGER_MS = 5_000;

/** Answers what the parser refuses with a problem details body and closes the connection once the client has read it. */
export function answerUnparsableRequests(server: Server): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return;
    // As Node does: nothing to answer on a connection that is gone or whose response has begun.
    const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || started) {
      socket.destroy();
      return;
    }
    const refusal = refusalOf(error);
    const status = httpStatusFor(refusal.code);
    const problem: ProblemDetails = {
      type: PROBLEM_TYPE_BASE + refusal.code,
      title: titleFor(refusal.code),
      status,
      detail: refusal.detail,
      code: refusal.code,
    };
    const body = JSON.stringify(problem);
    answered.add(socket);
    const linger = setTimeout(() => socket.destroy(), REFUSED_CONNECTION_LINGER_MS).unref();
    socket.once('close', () => clearTimeout(linger));
    socket.end(
      `HTTP/1.1 ${status} ${problem.title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
