// Requests Node's HTTP parser refuses before any application code runs (a request line or headers past
// its limit, bytes that are not HTTP): answered as problem details too, instead of Node's empty 400/431.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode, PROBLEM_TYPE_BASE, type ProblemDetails } from '@stdreg/contracts';
import { DomainError, httpStatusFor, titleFor } from './domain-error';

function refusalOf(error: NodeJS.ErrnoException): DomainError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new DomainError(ErrorCode.HeadersTooLarge, 'The request line and headers together are larger than the server accepts.');
  }
  return new DomainError(ErrorCode.ValidationFailed, 'The request is not well-formed HTTP.');
}

/** Answers what the parser refuses with a problem details body and closes the connection. */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
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
    socket.end(
      `HTTP/1.1 ${status} ${problem.title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
