// A minimal service built with the kit, for tests of what every service gets from it.
import { Controller, Get, Inject, Module, Param } from '@nestjs/common';
import { CommonServiceConfig, HealthModule, JsonLogger, type ReadinessCheck, type ServiceDefinition } from '../../src';

/** Requests to GET /api/slow wait until the test opens the gate. */
export class Gate {
  private open!: () => void;
  private reach!: () => void;
  opened = new Promise<void>((resolve) => (this.open = resolve));
  /** Resolves when a request is waiting at the gate. */
  reached = new Promise<void>((resolve) => (this.reach = resolve));
  release(): void {
    this.open();
  }
  wait(): Promise<void> {
    this.reach();
    return this.opened;
  }
}
export const slowGate = { current: new Gate() };

/** The example's readiness checks: a test puts in the ones it needs and takes them out after. */
export const exampleChecks: ReadinessCheck[] = [];

@Controller()
class ExampleController {
  constructor(@Inject(JsonLogger) private readonly logger: JsonLogger) {}

  @Get('items/:id')
  item(@Param('id') id: string): { id: string } {
    this.logger.log(`item ${id}`, 'Example');
    return { id };
  }

  @Get('slow')
  async slow(): Promise<{ done: true }> {
    await slowGate.current.wait();
    return { done: true };
  }
}

@Module({})
class ExampleModule {
  static register(logger: JsonLogger) {
    return {
      module: ExampleModule,
      imports: [HealthModule.register({ useValue: exampleChecks })],
      controllers: [ExampleController],
      providers: [{ provide: JsonLogger, useValue: logger }],
    };
  }
}

export class ExampleConfig extends CommonServiceConfig {}

export const EXAMPLE_SERVICE: ServiceDefinition<ExampleConfig> = {
  service: 'example',
  configClass: ExampleConfig,
  rootModule: (_config, logger) => ExampleModule.register(logger),
  port: () => 0,
  host: () => '127.0.0.1',
  globalPrefix: 'api',
};
