import type { LoggerService } from '@nestjs/common';
import type { LogLevel } from '../config/common-config';
import { requestContext } from './request-context';

const SEVERITY: Record<LogLevel, number> = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4 };

/**
 * The shapes of the platform's credentials, wherever in a line they appear (a message, a field, a stack):
 * an API key's secret (its public `stdreg_<class>_<prefix>` is kept), a webhook signing secret, a bearer
 * credential, a JWT. What a library quotes in an error reaches the log without them.
 */
const CREDENTIALS: [RegExp, string][] = [
  [/\b([Bb]earer)\s+[A-Za-z0-9._~+/=-]{8,}/g, '$1 [redacted]'],
  [/\bwhsec_[A-Za-z0-9+/=_-]{8,}/g, 'whsec_[redacted]'],
  [/\b(stdreg_[a-z]+_[a-z0-9]+)_[A-Za-z0-9_-]{16,}/g, '$1_[redacted]'],
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[redacted JWT]'],
];
const MAY_HOLD_A_CREDENTIAL = /stdreg_|whsec_|[Bb]earer|eyJ/;

/** The line with every credential shape in it replaced. */
export function withoutCredentials(line: string): string {
  if (!MAY_HOLD_A_CREDENTIAL.test(line)) return line;
  return CREDENTIALS.reduce((text, [shape, replacement]) => text.replace(shape, replacement), line);
}

/**
 * What JSON.stringify leaves as it is but a reader may take for the end of a line (NEL, LINE and PARAGRAPH SEPARATOR:
 * line breaks to Unicode-aware line splitters) or show out of order (bidirectional marks, embeddings, overrides and
 * isolates): written as `\uXXXX` escapes, so a line says the same to a JSON parser and cannot look like two lines.
 */
const UNSAFE_IN_A_LINE = /[\u0085\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The JSON text with every character a reader might split a line at or reorder it by escaped (outside strings JSON is ASCII). */
export function oneSafeLine(json: string): string {
  return json.replace(UNSAFE_IN_A_LINE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Structured JSON lines on stdout, one per event, with the request id and trace id when there are. */
export class JsonLogger implements LoggerService {
  private readonly threshold: number;

  constructor(
    private readonly service: string,
    level: LogLevel = 'info',
  ) {
    this.threshold = SEVERITY[level];
  }

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }
  error(message: unknown, stackOrContext?: string, context?: string): void {
    const stack = context === undefined ? undefined : stackOrContext;
    this.write('error', message, context ?? stackOrContext, stack);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  isEnabled(level: LogLevel): boolean {
    return SEVERITY[level] <= this.threshold;
  }

  /** Writes one event with extra structured fields. */
  event(level: LogLevel, message: string, fields: Record<string, unknown>, context?: string): void {
    this.write(level, message, context, undefined, fields);
  }

  /**
   * Writes one audit event (`audit: true`) whatever LOG_LEVEL says: for a service without a database, the
   * log is its audit trail, and a log level must not decide what that holds.
   */
  audit(message: string, fields: Record<string, unknown>, context?: string): void {
    this.emit('info', message, context, undefined, { audit: true, ...fields });
  }

  private write(level: LogLevel, message: unknown, context?: string, stack?: string, fields?: Record<string, unknown>): void {
    if (SEVERITY[level] > this.threshold) return;
    this.emit(level, message, context, stack, fields);
  }

  private emit(level: LogLevel, message: unknown, context?: string, stack?: string, fields?: Record<string, unknown>): void {
    const entry: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      service: this.service,
      ...(context ? { context } : {}),
      msg: message instanceof Error ? message.message : message,
      ...fields,
    };
    const request = requestContext.getStore();
    if (request) {
      entry['requestId'] = request.requestId;
      if (request.trace) entry['traceId'] = request.trace.traceId;
    }
    if (stack) entry['stack'] = stack;
    else if (message instanceof Error && message.stack) entry['stack'] = message.stack;
    process.stdout.write(oneSafeLine(withoutCredentials(JSON.stringify(entry))) + '\n');
  }
}
