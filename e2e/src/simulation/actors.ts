// The simulation's actors: people of two organizations who sign in at identity (project owners, so
// every operation is theirs to do) and one organization's App key; and how each of them calls
// standards-api, riding out the faults the way a careful client does.
import { startSignedInPartner, type SignedInPartner } from '@stdreg/server-kit/testing';
import type { SimulatedPlatform } from './simulated-platform';

export interface Person {
  name: string;
  uid: string;
  email: string;
  organizationId: string;
  token: string;
  partner: SignedInPartner;
}

export interface Cast {
  people: Person[];
  /** The App key of each organization, by organization id: refused every formal write. */
  appKeys: Map<string, string>;
  close(): Promise<void>;
}

/** Three project owners of one organization and one of another. */
export async function castActors(platform: SimulatedPlatform): Promise<Cast> {
  const identity = { url: platform.identityUrl, platformKey: platform.platformKey };
  const partners = [await startSignedInPartner(identity), await startSignedInPartner(identity)];
  const people: Person[] = [];
  for (const [index, partner] of [partners[0]!, partners[0]!, partners[0]!, partners[1]!].entries()) {
    const user = await partner.userWithRoles(['project-owner']);
    people.push({
      name: `person-${index}`,
      ...user,
      organizationId: partner.organizationId,
      token: await partner.signIn(user.email),
      partner,
    });
  }
  return {
    people,
    appKeys: new Map(partners.map((partner) => [partner.organizationId, partner.appKey])),
    close: async () => {
      for (const partner of partners) await partner.close();
    },
  };
}

export interface Answer {
  /** 0: no answer (the connection was cut). */
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  /** How many times the request was sent again after no answer or a 503. */
  resent: number;
}

export interface Request {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * How a request reaches standards-api. While a fault is under way (`outage`), a request that got no
 * answer, or a 503, is sent again (the same request, the same Idempotency-Key) once the outage is over,
 * up to three times; a person whose sign-in is too old for a formal write signs in again (step-up) and
 * sends it again.
 */
export class Caller {
  /** Resolves when the fault of the current step is over (standards-api restarted, identity quick again). */
  outage: Promise<void> | null = null;
  /** Requests sent again after no answer or a 503 during a fault. */
  resentRequests = 0;

  constructor(private readonly baseUrl: () => string) {}

  async send(as: { token: string; organizationId: string; person?: Person }, request: Request): Promise<Answer> {
    let resent = 0;
    for (;;) {
      const answer = await this.once(as.person?.token ?? as.token, as.organizationId, request);
      if (answer.status === 401 && answer.body['domainCode'] === 'authorization.authentication_too_old' && as.person) {
        as.person.token = await as.person.partner.signIn(as.person.email, { max_age: '60' });
        continue;
      }
      const unavailable = answer.status === 0 || answer.status === 503;
      if (!unavailable || this.outage === null || resent === 3) return { ...answer, resent };
      await this.outage;
      resent++;
      this.resentRequests++;
    }
  }

  private async once(token: string, organizationId: string, request: Request): Promise<Omit<Answer, 'resent'>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      'x-organization-id': organizationId,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...request.headers,
    };
    try {
      const response = await fetch(`${this.baseUrl()}/api/v2${request.path}`, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: response.headers };
    } catch {
      return { status: 0, body: {}, headers: new Headers() };
    }
  }
}
