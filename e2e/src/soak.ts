// The soak (issue 18, part 4): the platform under light mixed traffic with idle gaps longer than every
// pool, cache, lease and token timeout, its database connections dropped and one service restarted;
// every answer counted, every service's /readyz watched every 200 ms, every service's RSS sampled.
import { setTimeout as sleep } from 'node:timers/promises';
import { postMcp, sampleScenario, startSignedInPartner, type SignedInPartner } from '@stdreg/server-kit/testing';
import { memoryGrowth, type MemoryGrowth } from './memory-growth';
import { SERVICES, type Platform, type Service } from './platform';

/** One step of a soak's plan. */
export type SoakStep =
  | { kind: 'traffic'; ms: number }
  | { kind: 'idle'; ms: number }
  | { kind: 'drop-database-connections' }
  | { kind: 'restart' }
  /** Revokes the second App key the traffic used so far: from then on every service must refuse it. */
  | { kind: 'revoke-second-key' }
  /** The memory samples begin after warm-up: of every service, or (after a restart) of the ones restarted. */
  | { kind: 'memory-baseline' };

export interface SoakPlan {
  steps: SoakStep[];
  /** What the services run with: in the short run the idle timeouts that config can shorten are shortened. */
  env: Record<string, string>;
  /** The access tokens' lifetime the services run with (seconds). */
  accessTokenTtlSeconds: number;
}

// Limits far above the soak's light traffic: the soak is about time, not about limits (part 5 is).
const UNLIMITED = {
  RATE_LIMIT_APP_PER_MINUTE: '100000',
  RATE_LIMIT_APP_BURST: '100000',
  RATE_LIMIT_APP_WRITES_PER_MINUTE: '100000',
  MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '100000',
  MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '100000',
  // A long soak drafts two projects every fourth round, past the default bound on an organization's drafts.
  SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION: '100000',
  // The event relay and the webhook dispatcher look for work every 250 ms by default, which keeps a pooled
  // connection from ever idling out (or being made anew through the proxies that drop connections); here
  // they look once a minute (still woken by their own process's events), so the pools idle as this soak means.
  EVENT_RELAY_INTERVAL_MS: '60000',
  WEBHOOK_POLL_INTERVAL_MS: '60000',
};

/**
 * The short run (CI): the pool idle timeout, the registry cache and the access tokens' lifetime set as
 * short as the services' validated settings allow, and idle gaps of 6 s, longer than every timeout
 * then in force but the tokens' 60 s (HTTP keep-alive: 5 s on the servers, 4 s in the clients).
 */
export function shortPlan(): SoakPlan {
  const gap = { kind: 'idle', ms: 6_000 } as const;
  const traffic = { kind: 'traffic', ms: 2_000 } as const;
  return {
    env: { ...UNLIMITED, DATABASE_POOL_IDLE_TIMEOUT_MS: '1000', REGISTRY_CACHE_SECONDS: '1', OIDC_ACCESS_TOKEN_TTL_SECONDS: '60' },
    accessTokenTtlSeconds: 60,
    steps: [
      { kind: 'traffic', ms: 4_000 },
      { kind: 'memory-baseline' },
      { kind: 'revoke-second-key' },
      { kind: 'drop-database-connections' },
      gap,
      traffic,
      { kind: 'drop-database-connections' },
      traffic,
      gap,
      { kind: 'restart' },
      traffic,
      { kind: 'memory-baseline' },
      gap,
      traffic,
      { kind: 'drop-database-connections' },
      gap,
      traffic,
    ],
  };
}

/**
 * The long run: every default, idle gaps of 15 and 40 s (past the pool's 10 s), one gap of the access
 * tokens' 600 s and half a minute more (past every token, the exchanged ones included, and identity's
 * 10-minute purge), the restart early so that the memory figures cover most of the run.
 */
export function longPlan(minutes: number): SoakPlan {
  const accessTokenTtlSeconds = 600;
  const traffic = { kind: 'traffic', ms: 20_000 } as const;
  const steps: SoakStep[] = [
    { kind: 'traffic', ms: 30_000 },
    { kind: 'memory-baseline' },
    { kind: 'revoke-second-key' },
    { kind: 'drop-database-connections' },
    { kind: 'idle', ms: 15_000 },
    traffic,
    { kind: 'restart' },
    { kind: 'traffic', ms: 30_000 },
    { kind: 'memory-baseline' },
    { kind: 'drop-database-connections' },
    { kind: 'idle', ms: (accessTokenTtlSeconds + 30) * 1000 },
    traffic,
  ];
  const total = (plan: SoakStep[]) => plan.reduce((sum, step) => sum + ('ms' in step ? step.ms : 0), 0);
  for (let cycle = 0; total(steps) < minutes * 60_000; cycle++) {
    steps.push({ kind: 'drop-database-connections' }, { kind: 'idle', ms: cycle % 2 ? 40_000 : 15_000 }, traffic);
  }
  return { env: { ...UNLIMITED }, accessTokenTtlSeconds, steps };
}

export interface SoakFigures {
  databases: Platform['databases'];
  durationSeconds: number;
  /** Answers by request kind. */
  requests: Record<string, number>;
  /** Answers with a 5xx status, and every answer that was not the expected one (5xx included), first few in full. */
  serverErrors: number;
  unexpected: number;
  unexpectedExamples: string[];
  /** Expired access tokens tried once each after their lifetime: every one must be refused (401 at the gateway, 403 at standards-api). */
  expiredTokensRefused: number;
  readiness: {
    samples: number;
    /** Samples of a service that was up and should have been: anything but 200 counts. */
    notReady: number;
    notReadyExamples: string[];
    /** Samples of a restarted service between its stop and its being ready again (not counted above). */
    duringRestart: number;
  };
  droppedDatabaseConnections: number[];
  restarted: Service[];
  /**
   * Per service, sampled after warm-up and at the end of every traffic period since: the resident set size
   * (MiB), what the long run holds to 10 %, and V8's heap in use (MiB, garbage not yet collected included),
   * reported; each as its peak in the first and in the second half of the samples (memory-growth.ts).
   */
  memory: Record<Service, { rssMiB: MemoryGrowth; heapUsedMiB: MemoryGrowth }>;
}

/** Runs `plan` against a started `platform`; the caller asserts on the figures. */
export async function soak(platform: Platform, plan: SoakPlan): Promise<SoakFigures> {
  const started = Date.now();
  const urls: Record<Service, string> = {
    identity: platform.identityUrl,
    'standards-api': platform.standardsApiUrl,
    'mcp-gateway': platform.mcpUrl.replace(/\/mcp$/, ''),
  };
  const partner = await startSignedInPartner({ url: platform.identityUrl, platformKey: platform.platformKey });
  const watch = new ReadinessWatch(urls);
  try {
    const traffic = await Traffic.begin(platform, partner, plan.accessTokenTtlSeconds);
    const samples: Partial<Record<Service, MemorySample[]>> = {};
    const sample = async (services: readonly Service[]) => {
      for (const service of services) {
        const series = samples[service];
        if (series) series.push(await memoryMiB(urls[service]));
      }
    };
    const dropped: number[] = [];
    let restarted: Service[] = [];
    watch.start();
    for (const step of plan.steps) {
      switch (step.kind) {
        case 'traffic':
          await traffic.runFor(step.ms);
          await sample(SERVICES);
          break;
        case 'idle':
          await watch.quietFor(step.ms);
          break;
        case 'revoke-second-key':
          await traffic.revokeSecondKey();
          break;
        case 'drop-database-connections':
          dropped.push(await platform.dropDatabaseConnections());
          break;
        case 'restart': {
          // The restarted services' readiness may be anything from their stop until `restart` resolves,
          // which is when they are ready again; traffic resumes only then.
          watch.exempt(platform.restarts, true);
          await platform.restart();
          watch.exempt(platform.restarts, false);
          restarted = platform.restarts;
          break;
        }
        case 'memory-baseline':
          for (const service of restarted.length ? restarted : SERVICES) samples[service] = [await memoryMiB(urls[service])];
          break;
      }
    }
    const memory = {} as SoakFigures['memory'];
    for (const service of SERVICES) {
      const series = samples[service]!;
      if (series.length < 2) series.push(await memoryMiB(urls[service]));
      memory[service] = {
        rssMiB: memoryGrowth(series.map((s) => s.rss)),
        heapUsedMiB: memoryGrowth(series.map((s) => s.heapUsed)),
      };
    }
    await watch.stop();
    return {
      databases: platform.databases,
      durationSeconds: Math.round((Date.now() - started) / 1000),
      ...traffic.figures(),
      readiness: watch.figures(),
      droppedDatabaseConnections: dropped,
      restarted,
      memory,
    };
  } finally {
    await watch.stop();
    await partner.close();
  }
}

interface MemorySample {
  rss: number;
  heapUsed: number;
}

async function memoryMiB(serviceUrl: string): Promise<MemorySample> {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  const mib = (metric: string) => {
    const bytes = new RegExp(`^${metric} (\\d+)`, 'm').exec(text)?.[1];
    if (!bytes) throw new Error(`${serviceUrl}/metrics has no ${metric}`);
    return Math.round((Number(bytes) / 2 ** 20) * 10) / 10;
  };
  return { rss: mib('process_resident_memory_bytes'), heapUsed: mib('nodejs_heap_size_used_bytes') };
}

/**
 * Every service's /readyz every 200 ms, but in an idle gap, of which it takes one sample at the end: a
 * probe every 200 ms would be traffic itself (a database query on the request pool) and keep the pools
 * from ever sitting idle. A sample of a service that is exempt (being restarted) at its start or end is
 * set aside. A probe may take up to 10 s on a busy machine: slowness is not unreadiness.
 */
class ReadinessWatch {
  private readonly exempted = new Set<Service>();
  private quiet = false;
  private running: Promise<void> | undefined;
  private stopping = false;
  private samples = 0;
  private duringRestart = 0;
  private readonly notReady: string[] = [];

  constructor(private readonly urls: Record<Service, string>) {}

  start(): void {
    this.running = (async () => {
      while (!this.stopping) {
        if (!this.quiet) await this.probeAll();
        await sleep(200);
      }
    })();
  }

  /** No probes for `ms` (a probe under way ends first), then one of every service. */
  async quietFor(ms: number): Promise<void> {
    this.quiet = true;
    await sleep(ms);
    this.quiet = false;
    await this.probeAll();
  }

  private probeAll(): Promise<void[]> {
    return Promise.all(SERVICES.map((service) => this.probe(service)));
  }

  exempt(services: Service[], on: boolean): void {
    for (const service of services) {
      if (on) this.exempted.add(service);
      else this.exempted.delete(service);
    }
  }

  private async probe(service: Service): Promise<void> {
    const exemptAtStart = this.exempted.has(service);
    const status = await fetch(`${this.urls[service]}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
      (response) => String(response.status),
      (error: unknown) => (error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)),
    );
    this.samples++;
    if (exemptAtStart || this.exempted.has(service)) this.duringRestart++;
    else if (status !== '200') this.notReady.push(`${new Date().toISOString()} ${service}: ${status}`);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  figures(): SoakFigures['readiness'] {
    return {
      samples: this.samples,
      notReady: this.notReady.length,
      notReadyExamples: this.notReady.slice(0, 10),
      duringRestart: this.duringRestart,
    };
  }
}

interface AccessToken {
  value: string;
  issuedAt: number;
}

/**
 * Light mixed traffic, one request after another: keyed reads at identity and standards-api, the
 * registry, a signed-in person's read, a tool call with the App key; every fourth round a draft with the
 * App key and one through the gateway by the person's agent (its token exchanged at identity).
 */
class Traffic {
  private readonly counts: Record<string, number> = {};
  private serverErrors = 0;
  private readonly unexpected: string[] = [];
  private expiredTokensRefused = 0;
  private round = 0;
  private secondKeyRevoked = false;

  private constructor(
    private readonly platform: Platform,
    private readonly partner: SignedInPartner,
    private readonly person: { email: string },
    private readonly tokenTtlMs: number,
    private personToken: AccessToken,
    private agentToken: AccessToken,
    private readonly secondKey: { id: string; secret: string },
  ) {}

  static async begin(platform: Platform, partner: SignedInPartner, tokenTtlSeconds: number): Promise<Traffic> {
    const person = await partner.userWithRoles(['project-owner']);
    const [personToken, agentToken] = [await signIn(partner, person.email), await signInAgent(platform, partner, person.email)];
    const issued = await send('POST', `${platform.identityUrl}/v1/keys`, {
      token: platform.platformKey,
      body: { name: 'second key', class: 'app', organizationId: partner.organizationId },
    });
    if (issued.status !== 201) throw new Error(`the second App key was not issued: ${issued.status} ${await issued.text()}`);
    const { key, secret } = (await issued.json()) as { key: { id: string }; secret: string };
    return new Traffic(platform, partner, person, tokenTtlSeconds * 1000, personToken, agentToken, { id: key.id, secret });
  }

  /** Revokes the second key; identity answers once no replica relies on a lease taken before. */
  async revokeSecondKey(): Promise<void> {
    const revoked = await send('POST', `${this.platform.identityUrl}/v1/keys/${this.secondKey.id}/revoke`, {
      token: this.platform.platformKey,
    });
    if (revoked.status !== 200) throw new Error(`the second App key was not revoked: ${revoked.status} ${await revoked.text()}`);
    this.secondKeyRevoked = true;
  }

  async runFor(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      await this.oneRound();
      await sleep(150);
    }
  }

  figures() {
    return {
      requests: { ...this.counts },
      serverErrors: this.serverErrors,
      unexpected: this.unexpected.length,
      unexpectedExamples: this.unexpected.slice(0, 10),
      expiredTokensRefused: this.expiredTokensRefused,
    };
  }

  private async oneRound(): Promise<void> {
    const { identityUrl, standardsApiUrl } = this.platform;
    const api = `${standardsApiUrl}/api/v2`;
    const app = { token: this.partner.appKey, organizationId: this.partner.organizationId };
    this.round++;
    await this.expect('identity keyed read', status(200), () => send('GET', `${identityUrl}/v1/apps`, { token: app.token }));
    await this.expect('registry read', status(200), () => send('GET', `${api}/standards`, {}));
    await this.expect('keyed read', status(200), () => send('GET', `${api}/split-projects`, app));
    // The second key: allowed until revoked, refused ever after (no lease or cached allow outlives it):
    // identity refuses the credential itself (401), and so does standards-api when identity tells it
    // `invalid_credential` (401).
    const second = { token: this.secondKey.secret, organizationId: app.organizationId };
    const revoked = this.secondKeyRevoked;
    await this.expect('second key, identity', status(revoked ? 401 : 200), () => send('GET', `${identityUrl}/v1/apps`, second));
    await this.expect('second key, standards-api', status(revoked ? 401 : 200), () => send('GET', `${api}/split-projects`, second));
    this.personToken = await this.fresh(this.personToken, 'person read', 401, (token) =>
      send('GET', `${api}/split-projects`, { token, organizationId: app.organizationId }),
    );
    await this.expect('person read', status(200), () =>
      send('GET', `${api}/split-projects`, { token: this.personToken.value, organizationId: app.organizationId }),
    );
    await this.expectTool('tool call', app.token, 'resolve_term', { text: 'revenue share' });
    if (this.round % 4 !== 1) return;
    await this.expect('draft', status(201), () => send('POST', `${api}/split-projects`, { ...app, body: draft('Soak draft') }));
    this.agentToken = await this.fresh(this.agentToken, 'agent tool call', 401, (token) =>
      toolCall(this.platform.mcpUrl, token, 'draft_split_project', draft('Agent soak draft')),
    );
    await this.expectTool('agent tool call', this.agentToken.value, 'draft_split_project', draft('Agent soak draft'));
  }

  /**
   * The token, or a new one when it is near its end. A token past its end is tried once more first:
   * it must be refused with `refusal` (a cached allow or exchanged token outliving it would let it
   * through): the gateway refuses it itself (401), and standards-api when identity tells it
   * `invalid_credential` (401).
   */
  private async fresh(
    token: AccessToken,
    kind: 'person read' | 'agent tool call',
    refusal: number,
    use: (token: string) => Promise<Response>,
  ): Promise<AccessToken> {
    const age = Date.now() - token.issuedAt;
    if (age < this.tokenTtlMs - 15_000) return token;
    if (age > this.tokenTtlMs + 2_000) {
      const refused = await use(token.value).catch(() => undefined);
      if (refused?.status === refusal) this.expiredTokensRefused++;
      else this.record(kind, `expired token answered ${refused?.status ?? 'nothing'}: ${(await refused?.text())?.slice(0, 300)}`);
    }
    return kind === 'person read' ? signIn(this.partner, this.person.email) : signInAgent(this.platform, this.partner, this.person.email);
  }

  /** Sends one request and records its answer: `wanted` says whether it is the expected one. */
  private async expect(kind: string, wanted: (status: number, body: string) => boolean, request: () => Promise<Response>): Promise<void> {
    const response = await request().catch((error: unknown) => error as Error);
    if (response instanceof Error) return this.record(kind, `failed: ${response.message}`);
    const body = await response.text();
    if (response.status >= 500) this.serverErrors++;
    this.record(kind, wanted(response.status, body) ? undefined : `${response.status}: ${body.slice(0, 300)}`);
  }

  private expectTool(kind: string, token: string, name: string, args: Record<string, unknown>): Promise<void> {
    return this.expect(kind, toolSucceeded, () => toolCall(this.platform.mcpUrl, token, name, args));
  }

  private record(kind: string, problem: string | undefined): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    if (problem) this.unexpected.push(`${new Date().toISOString()} ${kind}: ${problem}`);
  }
}

const status = (wanted: number) => (answered: number) => answered === wanted;

/** A JSON-RPC answer with a tool result that is not an error. */
function toolSucceeded(status: number, body: string): boolean {
  if (status !== 200) return false;
  const answer = JSON.parse(body) as { result?: { isError?: boolean } };
  return answer.result !== undefined && answer.result.isError !== true;
}

function draft(name: string) {
  return { name, currency: 'EUR', templateVersion: '1.0', scenario: { name: 'Base', content: sampleScenario() } };
}

async function signIn(partner: SignedInPartner, email: string): Promise<AccessToken> {
  return { value: await partner.signIn(email), issuedAt: Date.now() };
}

async function signInAgent(platform: Platform, partner: SignedInPartner, email: string): Promise<AccessToken> {
  return { value: (await partner.signInAgent(email, platform.mcpUrl, 'projects:draft')).accessToken, issuedAt: Date.now() };
}

function send(method: string, url: string, options: { token?: string; organizationId?: string; body?: unknown }): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.organizationId) headers['x-organization-id'] = options.organizationId;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
}

function toolCall(mcpUrl: string, token: string, name: string, args: Record<string, unknown>): Promise<Response> {
  return postMcp(mcpUrl, token, { id: 1, method: 'tools/call', params: { name, arguments: args } });
}
