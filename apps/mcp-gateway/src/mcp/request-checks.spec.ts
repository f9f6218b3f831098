import { checkOrigin, checkProtocolVersion } from './request-checks';

const policy = { allowedHosts: ['localhost', '127.0.0.1', '[::1]'], allowedOrigins: [] };

describe('request checks', () => {
  it('accepts loopback hosts with any port and origins on allowed hosts', () => {
    for (const host of ['localhost:3002', '127.0.0.1', '[::1]:8080', 'LOCALHOST'])
      expect(checkOrigin({ host }, policy)).toEqual({ ok: true });
    expect(checkOrigin({ host: 'localhost:3002', origin: 'http://127.0.0.1:5173' }, policy)).toEqual({ ok: true });
  });

  it('refuses foreign or missing hosts and foreign or malformed origins with 403', () => {
    for (const headers of [
      {},
      { host: 'evil.example.com' },
      { host: 'localhost.evil.com:3002' },
      { host: 'localhost', origin: 'http://evil.example.com' },
      { host: 'localhost', origin: 'null' },
    ]) {
      expect(checkOrigin(headers, policy)).toMatchObject({ ok: false, status: 403 });
    }
  });

  it('uses the configured origins exactly when there are some', () => {
    const strict = { ...policy, allowedOrigins: ['https://agent.example'] };
    expect(checkOrigin({ host: 'localhost', origin: 'https://agent.example' }, strict)).toEqual({ ok: true });
    expect(checkOrigin({ host: 'localhost', origin: 'http://localhost:3000' }, strict)).toMatchObject({ ok: false, status: 403 });
  });

  it("refuses a configured origin's host on another scheme or port", () => {
    const strict = { ...policy, allowedOrigins: ['https://agent.example'] };
    for (const origin of ['http://agent.example', 'https://agent.example:8443', 'https://agent.example.evil.com'])
      expect({ origin, check: checkOrigin({ host: 'localhost', origin }, strict) }).toMatchObject({
        origin,
        check: { ok: false, status: 403 },
      });
  });

  it('accepts no version header or 2025-11-25 and refuses any other with 400', () => {
    expect(checkProtocolVersion({})).toEqual({ ok: true });
    expect(checkProtocolVersion({ 'mcp-protocol-version': '2025-11-25' })).toEqual({ ok: true });
    expect(checkProtocolVersion({ 'mcp-protocol-version': '2025-06-18' })).toMatchObject({ ok: false, status: 400 });
  });

  it('refuses a version near 2025-11-25 or containing it: only the exact value is spoken', () => {
    for (const version of ['2025-11-26', '2025-11-05', '2025-11-25x', '2025-11-25, 2025-06-18', '2025-11-2'])
      expect({ version, check: checkProtocolVersion({ 'mcp-protocol-version': version }) }).toMatchObject({
        version,
        check: { ok: false, status: 400 },
      });
  });
});
