// W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` header a request
// arrives with is continued, or a new trace is started; outgoing calls carry it on.
import { randomBytes } from 'node:crypto';

export interface TraceContext {
  /** 32 lowercase hex digits, shared by every service the request passes through. */
  traceId: string;
  /** 16 hex digits: this service's span for the request, the parent of its outgoing calls. */
  spanId: string;
  /** 2 hex digits (`01`: sampled). */
  flags: string;
  /** The incoming `tracestate`, passed on unchanged. */
  state?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZEROS = /^0+$/;
const TRACESTATE_LIMIT = 512;

/** The trace of an incoming request: its `traceparent` continued, or a new one when absent or invalid. */
export function continueTrace(traceparent: string | undefined, tracestate?: string): TraceContext {
  const parent = traceparent === undefined ? undefined : parseTraceparent(traceparent);
  if (!parent) return { traceId: randomHex(16), spanId: randomHex(8), flags: '01' };
  const state = tracestate && tracestate.length <= TRACESTATE_LIMIT ? tracestate : undefined;
  return { traceId: parent.traceId, spanId: randomHex(8), flags: parent.flags, ...(state ? { state } : {}) };
}

/** Parses a `traceparent` value; undefined when it is not one (the spec says: then start a new trace). */
export function parseTraceparent(value: string): { traceId: string; parentId: string; flags: string } | undefined {
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  // Version ff is forbidden; version 00 has exactly four fields; later versions may append more.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ALL_ZEROS.test(traceId) || ALL_ZEROS.test(parentId)) return undefined;
  return { traceId, parentId, flags };
}

/** The `traceparent` (and `tracestate`) for a call made on behalf of this trace. */
export function traceHeaders(trace: TraceContext): Record<string, string> {
  return {
    traceparent: `00-${trace.traceId}-${trace.spanId}-${trace.flags}`,
    ...(trace.state ? { tracestate: trace.state } : {}),
  };
}

// Ids come from a pool of random bytes refilled 4 KiB at a time: one randomBytes call per id costs
// more than the rest of the trace handling (tools/bench/observability.bench.mjs).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomHex(bytes: number): string {
  let hex: string;
  do {
    if (poolOffset + bytes > pool.length) {
      pool = randomBytes(POOL_BYTES);
      poolOffset = 0;
    }
    hex = pool.toString('hex', poolOffset, poolOffset + bytes);
    poolOffset += bytes;
  } while (ALL_ZEROS.test(hex));
  return hex;
}
