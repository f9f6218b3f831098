import { Controller, type DynamicModule, Get, Inject, type InjectionToken, Module, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';

/** One dependency the service needs to serve traffic; resolves when reachable, rejects otherwise. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
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
      this.checks.map(async ({ name, check }) => [name, await withTimeout(check()).then(() => 'up', () => 'down')]),
    );
    const checks = Object.fromEntries(results) as Record<string, 'up' | 'down'>;
    const ready = Object.values(checks).every((state) => state === 'up');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
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
 * `GET /healthz` (the process is alive) and `GET /readyz` (every dependency answers).
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
