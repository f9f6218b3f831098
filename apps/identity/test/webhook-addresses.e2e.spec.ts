import request from 'supertest';
import { WebhookTransport } from '../src/partners/webhooks/webhook-transport';
import { listenCountingConnections, type ConnectionCounter } from './support/connection-counter';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// Issue 27: IPv6 spellings that carry an IPv4 address, and numeric IPv4 spellings, are judged by the
// address they reach, at registration and at every connection.

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const countEndpoints = async () => (await identity.dataSource.query('SELECT count(*)::int AS n FROM webhook_endpoint'))[0].n as number;
const register = (key: string, url: string) =>
  request(identity.server)
    .post('/v1/webhook-endpoints')
    .set(bearer(key))
    .send({ url, eventTypes: ['app.registered'] });

beforeAll(async () => {
  // The production default: neither loopback nor private networks allowed.
  identity = await startIdentity({ WEBHOOK_DISPATCHER: 'off', RATE_LIMIT_APP_WRITES_PER_MINUTE: '10000' });
});
afterAll(() => identity.close());

const REFUSED = [
  ['https://[::a9fe:a9fe]/', '169.254.169.254'],
  ['https://[::a00:7]/', '10.0.0.7'],
  ['https://[::7f00:1]/', '127.0.0.1'],
  ['https://[::ffff:169.254.169.254]/latest/meta-data', '169.254.169.254'],
  ['https://[64:ff9b::169.254.169.254]/', '169.254.169.254'],
  ['https://[2002:a9fe:a9fe::1]/', '169.254.169.254'],
  ['https://[2001:0:4136:e378:8000:63bf:5601:5601]/', '169.254.169.254'],
  ['https://[::ffff:0:a00:7]/', '10.0.0.7'],
  ['https://2852039166/', '169.254.169.254'],
  ['https://0251.0376.0251.0376/', '169.254.169.254'],
  ['https://0x7f.1/', '127.0.0.1'],
  ['https://[fd00:ec2::254]/', 'fd00:ec2::254'],
] as const;

describe('registering an endpoint', () => {
  it.each(REFUSED)('refuses %s with a 400 on url naming the address it reaches (%s), and stores nothing', async (url, reached) => {
    const key = await identity.newAppKey();
    const before = await countEndpoints();
    const response = await register(key.secret, url).expect(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.body.domainCode).toBe('webhooks.url_refused');
    expect(response.body.errors[0].field).toBe('url');
    expect(response.body.errors[0].message).toContain('is not an address webhooks may reach');
    expect(response.body.errors[0].message).toContain(reached);
    expect(await countEndpoints()).toBe(before);
  });

  it("refuses the issue's addresses in a PATCH of url too, and keeps the URL it had", async () => {
    const key = await identity.newAppKey();
    const created = await register(key.secret, 'https://93.184.215.14/hook').expect(201);
    const id = created.body.endpoint.id as string;
    for (const url of ['https://[::a9fe:a9fe]/', 'https://[::a00:7]/', 'https://[::7f00:1]/']) {
      const response = await request(identity.server)
        .patch(`/v1/webhook-endpoints/${id}`)
        .set(bearer(key.secret))
        .send({ url })
        .expect(400);
      expect(response.body.domainCode).toBe('webhooks.url_refused');
      expect(response.body.errors[0].field).toBe('url');
    }
    const { body } = await request(identity.server).get(`/v1/webhook-endpoints/${id}`).set(bearer(key.secret)).expect(200);
    expect(body.url).toBe('https://93.184.215.14/hook');
  });

  it('accepts a public IPv4 address through the NAT64 well-known prefix (RFC 6052), as an IPv6-only network reaches it', async () => {
    const key = await identity.newAppKey();
    const created = await register(key.secret, 'https://[64:ff9b::93.184.215.14]/hook').expect(201);
    expect(created.body.endpoint.url).toBe('https://[64:ff9b::93.184.215.14]/hook');
  });
});

describe('connecting', () => {
  const NOT_PUBLIC = 'partner.example resolves to an address that is not public, which webhooks may not reach';
  let listener: ConnectionCounter;
  beforeAll(async () => {
    listener = await listenCountingConnections();
  });
  afterAll(() => listener.close());

  it.each([
    ['::a9fe:a9fe', 6],
    ['::a00:7', 6],
    ['::ffff:a9fe:a9fe', 6],
    ['64:ff9b::a9fe:a9fe', 6],
    ['2002:a9fe:a9fe::1', 6],
    ['169.254.169.254', 4],
  ] as const)(
    'opens no connection to a name that resolves to %s beside this machine, even with loopback allowed, and does not name the address',
    async (refused, family) => {
      const before = listener.count();
      let asked = 0;
      const transport = new WebhookTransport({
        allowLoopback: true,
        allowPrivate: false,
        timeoutMs: 2000,
        resolve: (_host, _options, callback) => {
          asked++;
          callback(null, [
            { address: refused, family },
            { address: '127.0.0.1', family: 4 },
          ]);
        },
      });
      const url = `https://partner.example:${listener.port}/hook`;
      const sent = await transport.send(url, '{}', {});
      expect(listener.count()).toBe(before);
      expect(sent).toMatchObject({ ok: false, status: null });
      // What the partner reads (the 400 at registration, a delivery's error): not the address the platform's
      // resolver gave, which for an internal name would map the platform's network for them.
      expect(sent.error).toBe(NOT_PUBLIC);
      expect(await transport.refusal(url)).toBe(NOT_PUBLIC);
      expect(asked).toBe(2);
      await transport.close();
    },
  );

  it("sends nothing to the issue's literal addresses, before any connection", async () => {
    const before = listener.count();
    const transport = new WebhookTransport({ allowLoopback: false, allowPrivate: false, timeoutMs: 2000 });
    for (const host of ['[::a9fe:a9fe]', '[::a00:7]', '[::7f00:1]', '[::ffff:7f00:1]', '[64:ff9b::7f00:1]', '0x7f.1', '2130706433']) {
      const url = `https://${host}:${listener.port}/hook`;
      const sent = await transport.send(url, '{}', {});
      expect([url, listener.count()]).toEqual([url, before]);
      expect([url, sent.error]).toEqual([url, expect.stringContaining('is not an address webhooks may reach')]);
      expect(await transport.refusal(url)).toContain('is not an address webhooks may reach');
    }
    await transport.close();
  });
});

describe('the OpenAPI document', () => {
  it("says which addresses an endpoint's url may reach, on registration and on a change", async () => {
    const { body } = await request(identity.server).get('/v1/openapi.json').expect(200);
    for (const schema of ['CreateWebhookEndpointRequestDto', 'UpdateWebhookEndpointRequestDto']) {
      const description = body.components.schemas[schema].properties.url.description as string;
      for (const said of [
        '169.254.169.254',
        'IPv4-compatible `::a.b.c.d`',
        'NAT64 `64:ff9b::/96`',
        'Teredo',
        '`0xa9fea9fe`',
        'special-purpose registries',
      ])
        expect([schema, description]).toEqual([schema, expect.stringContaining(said)]);
    }
  });
});
