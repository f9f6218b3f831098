import { continueTrace, parseTraceparent, traceHeaders } from '../src';

const VALID = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('W3C trace context', () => {
  it('continues the trace of a valid traceparent with a new span of its own', () => {
    const trace = continueTrace(VALID, 'vendor=abc');
    expect(trace.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(trace.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(trace.spanId).not.toBe('00f067aa0ba902b7');
    expect(traceHeaders(trace)).toEqual({ traceparent: `00-${trace.traceId}-${trace.spanId}-01`, tracestate: 'vendor=abc' });
  });

  it.each([
    ['all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['uppercase hex', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01'],
    ['extra field in version 00', `${VALID}-extra`],
    ['short trace id', '00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01'],
    ['garbage', 'hello'],
  ])('starts a new trace instead of continuing one with %s', (_name, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
    const trace = continueTrace(value);
    expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(trace.traceId).not.toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(trace.flags).toBe('01');
  });

  it('accepts later versions with extra fields, as the specification asks', () => {
    expect(parseTraceparent(`01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-more`)).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentId: '00f067aa0ba902b7',
      flags: '00',
    });
  });
});
