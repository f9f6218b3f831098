import { Controller, type DynamicModule, Get, Inject, type InjectionToken, Module, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { serviceUrl } from '../http/service-url';

/**
 * One dependency of the service; `check` resolves when it is reachable, rejects otherwise. A
 * `downstream` dependency is another service of the platform: it is reported, but a replica is not
 * taken out of rotation for it (every replica would go at once, and callers would meet refused
 * connections instead of the clear 503 the replica answers them).
 */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  downstream?: boolean;
}

const DOWNSTREAM_TIMEOUT_MS = 1500;

/** Reachable when the other service answers its own liveness probe. */
export function downstreamServiceCheck(name: string, baseUrl: string): ReadinessCheck {
  const url = serviceUrl(baseUrl, '/healthz');
  return {
    name,
    downstream: true,
    check: async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(DOWNSTREAM_TIMEOUT_MS) });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${name} answered ${response.status}`);
    },
  };
}

export type ReadinessChecksSource =
  | { useValue: ReadinessCheck[] }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest factories take whatever their inject list resolves to
  | { useFactory: (...dependencies: any[]) => ReadinessCheck[]; inject?: InjectionToken[] };

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
const CHECK_TIMEOUT_MS = 2000;

@ApiExcludeController()
@Controller()
class HealthController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  @Get('healthz')
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res() res: Response): Promise<void> {
    const results = await Promise.all(
      this.checks.map(async (dependency) => ({
        dependency,
        state: await withTimeout(dependency.check()).then(
          () => 'up' as const,
          () => 'down' as const,
        ),
      })),
    );
    const own = results.filter(({ dependency }) => !dependency.downstream);
    const downstream = results.filter(({ dependency }) => dependency.downstream);
    const states = (entries: typeof results) => Object.fromEntries(entries.map(({ dependency, state }) => [dependency.name, state]));
    const ready = own.every(({ state }) => state === 'up');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not_ready',
      checks: states(own),
      ...(downstream.length > 0 ? { downstream: states(downstream) } : {}),
    });
  }
}

function withTimeout(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error('readiness check timed out')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `GET /healthz` (the process is alive) and `GET /readyz` (every dependency of its own answers;
 * downstream services are reported beside them).
 * `checks` is a provider whose value is the service's list of ReadinessCheck.
 */
@Module({})
export class HealthModule {
  static register(checks: ReadinessChecksSource, imports: DynamicModule['imports'] = []): DynamicModule {
    return {
      module: HealthModule,
      imports,
      controllers: [HealthController],
      providers: [{ ...checks, provide: READINESS_CHECKS }],
    };
  }
}
