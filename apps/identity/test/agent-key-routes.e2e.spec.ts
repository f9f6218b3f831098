import { randomBytes, randomUUID } from 'node:crypto';
import { RequestMethod, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer, Reflector } from '@nestjs/core';
import request from 'supertest';
import { KeyAuthGuard, keyRequirementOf, type KeyRequirement } from '../src/access/callers/key-auth.guard';
import { ServiceTokenGuard } from '../src/access/callers/service-token.guard';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// Every write route of identity either says, where its key is checked, that an agent's key (AGT-1) may not call it
// (a platform key required, a service credential, or AgentKeyRefused), or is listed here with why an agent may: a new
// route that says neither fails this test. Each route that refuses is then called with an agent's key.

/** Write routes an agent's key may reach, each with why; "METHOD /path" as the route declares it, without /v1. */
const AGENT_MAY_CALL: Record<string, string> = {
  'POST /users': "drafting people's records is an agent's work; no password link follows",
  'PATCH /users/:id': 'a change keeps the unified-user link, and is audited with the supervisor',
  'POST /sync': 'creates and changes as POST and PATCH /users; a batch with a deletion is refused by the service, which reads the body',
  'POST /webhook-endpoints/:endpointId/test': "sends a test event to the partner's own receiver",
  'POST /webhook-endpoints/:endpointId/deliveries/:deliveryId/replay': "sends a delivery again to the partner's own receiver",
  'POST /webhook-endpoints/:endpointId/recover': "sends missed deliveries again to the partner's own receiver",
  'POST /waitlist': 'takes no key: anyone may ask to join',
  'POST /password-setup/:token': 'takes no key: the person holding the link sets their password',
  'POST /signin/:uid/login': 'takes no key: a person signing in',
  'POST /signin/:uid/consent': 'takes no key: a person signing in',
  'POST /signin/:uid/abort': 'takes no key: a person signing in',
};

interface Route {
  name: string;
  method: RequestMethod;
  path: string;
  guards: unknown[];
  requirement: KeyRequirement;
}

const WRITES = new Set([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE]);

function joined(...parts: (string | undefined)[]): string {
  return `/${parts
    .filter((part): part is string => part !== undefined && part !== '' && part !== '/')
    .map((part) => part.replace(/^\/|\/$/g, ''))
    .join('/')}`;
}

/** Every route of the running app's controllers, with the guards and key requirement it declares. */
function routesOf(identity: RunningIdentity): Route[] {
  const reflector = identity.app.get(Reflector);
  const controllers = new Set<Type>();
  for (const module of identity.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) controllers.add(wrapper.metatype as Type);
  }
  return [...controllers].flatMap((controller) => {
    const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    const classGuards = (Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? [];
    return Object.getOwnPropertyNames(controller.prototype).flatMap((handler) => {
      const handlerFunction = controller.prototype[handler] as (...args: unknown[]) => unknown;
      const method = Reflect.getMetadata(METHOD_METADATA, handlerFunction) as RequestMethod | undefined;
      if (method === undefined || typeof handlerFunction !== 'function') return [];
      const path = joined(prefix, Reflect.getMetadata(PATH_METADATA, handlerFunction) as string | undefined);
      return [
        {
          name: `${RequestMethod[method]} ${path}`,
          method,
          path,
          guards: [...classGuards, ...((Reflect.getMetadata(GUARDS_METADATA, handlerFunction) as unknown[] | undefined) ?? [])],
          requirement: keyRequirementOf(reflector, handlerFunction, controller),
        },
      ];
    });
  });
}

/** Whether a keyed route's requirement refuses an agent's key: a platform key (an agent's is an app key), or not an agent's. */
function keyRequirementRefusesAgents(route: Route): boolean {
  return route.guards.includes(KeyAuthGuard) && (route.requirement.platformKey === true || route.requirement.notAgentKey !== undefined);
}

/** Whether the route declares that an agent's key may not call it, where who calls is checked. */
function refusesAgentKeys(route: Route): boolean {
  return route.guards.includes(ServiceTokenGuard) || keyRequirementRefusesAgents(route);
}

let identity: RunningIdentity;
let routes: Route[];
beforeAll(async () => {
  identity = await startIdentity({ WEBHOOK_DISPATCHER: 'off' });
  routes = routesOf(identity);
}, 60_000);
afterAll(() => identity?.close());

/** An agent's key of a partner's organization, supervised by one of the partner's people, bound to the partner's app. */
async function agentKey(): Promise<string> {
  const partner = await identity.newAppKey();
  const { registryId } = await identity.newRegistry(partner.secret);
  const person = await request(identity.server)
    .post('/v1/users')
    .set('Authorization', `Bearer ${partner.secret}`)
    .send({
      registryId,
      externalId: 'p-1',
      email: `p-${randomBytes(4).toString('hex')}@example.com`,
      emailVerified: true,
      displayName: 'P',
      locale: 'en',
    })
    .expect(201);
  const agent = await request(identity.server)
    .post('/v1/keys')
    .set('Authorization', `Bearer ${identity.platformKey}`)
    .send({
      name: 'agent',
      class: 'app',
      organizationId: partner.organizationId,
      agentSupervisorId: person.body.uid,
      allowedRegistryIds: [registryId],
    })
    .expect(201);
  return agent.body.secret as string;
}

describe("which of identity's write routes an agent's key may call", () => {
  it('is said of every write route: declared where the key is checked, or listed with a reason', () => {
    const writes = routes.filter((route) => WRITES.has(route.method));
    expect(writes.length).toBeGreaterThan(30);
    const unsaid = writes.filter((route) => !refusesAgentKeys(route) && !(route.name in AGENT_MAY_CALL)).map((route) => route.name);
    expect(unsaid).toEqual([]);
    const listedButRefused = writes.filter((route) => refusesAgentKeys(route) && route.name in AGENT_MAY_CALL).map((route) => route.name);
    expect(listedButRefused).toEqual([]);
    const listedButGone = Object.keys(AGENT_MAY_CALL).filter((name) => !writes.some((route) => route.name === name));
    expect(listedButGone).toEqual([]);
  });

  it("is refused, on every route whose key requirement refuses it, with that route's code and before anything is read", async () => {
    const agent = await agentKey();
    const keyed = routes.filter(keyRequirementRefusesAgents);
    expect(keyed.filter((route) => route.requirement.notAgentKey !== undefined).length).toBeGreaterThanOrEqual(8);
    const wrong: unknown[] = [];
    for (const route of keyed) {
      const path = `/v1${route.path.replace(/:[A-Za-z]+/g, () => randomUUID())}`;
      const method = RequestMethod[route.method].toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      const answer = await request(identity.server)[method](path).set('Authorization', `Bearer ${agent}`).send({});
      const code = route.requirement.platformKey ? 'keys.platform_key_required' : route.requirement.notAgentKey?.().domainCode;
      const seen = { route: route.name, status: answer.status, code: answer.body.code, domainCode: answer.body.domainCode };
      const expected = { route: route.name, status: 403, code: 'forbidden', domainCode: code };
      if (JSON.stringify(seen) !== JSON.stringify(expected)) wrong.push(seen);
    }
    expect(wrong).toEqual([]);
  });
});
