import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { KeyClass } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';
import type { KeyCaller } from './caller';
import { AgentKeyRefused } from './caller.decorators';
import { KeyRequirementGuard, RequireOfKey } from './key-auth.guard';

const refusedHere = () => DomainError.of('webhooks.agent_key_refused', 'not for agents');

@RequireOfKey({ platformKey: true })
class PlatformOnlyController {
  @AgentKeyRefused(refusedHere)
  write(): void {}
}

class PartnerController {
  @AgentKeyRefused(refusedHere)
  write(): void {}

  read(): void {}
}

const key = (keyClass: KeyClass, agentSupervisorUid: string | null = null): KeyCaller => ({
  keyId: 'k',
  keyPrefix: 'p',
  keyClass,
  organizationId: null,
  registryIds: [],
  maxApps: 3,
  agentSupervisorUid,
});

function answer(controller: new () => object, handler: string, caller: KeyCaller): string {
  const context = {
    switchToHttp: () => ({ getRequest: () => ({ caller }) }),
    getHandler: () => (controller.prototype as Record<string, () => void>)[handler],
    getClass: () => controller,
  } as unknown as ExecutionContext;
  try {
    new KeyRequirementGuard(new Reflector()).canActivate(context);
    return 'allowed';
  } catch (error) {
    return (error as DomainError).domainCode ?? String(error);
  }
}

describe('the key requirement a route declares', () => {
  it("refuses an agent's key with the route's own code, and lets other keys through", () => {
    expect(answer(PartnerController, 'write', key(KeyClass.App, 'uid-1'))).toBe('webhooks.agent_key_refused');
    expect(answer(PartnerController, 'write', key(KeyClass.App))).toBe('allowed');
    expect(answer(PartnerController, 'write', key(KeyClass.Platform))).toBe('allowed');
    expect(answer(PartnerController, 'read', key(KeyClass.App, 'uid-1'))).toBe('allowed');
  });

  it("keeps a controller's platform-only requirement when a route of it also refuses agents' keys", () => {
    expect(answer(PlatformOnlyController, 'write', key(KeyClass.App))).toBe('keys.platform_key_required');
    expect(answer(PlatformOnlyController, 'write', key(KeyClass.App, 'uid-1'))).toBe('keys.platform_key_required');
    expect(answer(PlatformOnlyController, 'write', key(KeyClass.Platform))).toBe('allowed');
  });
});
