import { type DynamicModule, Module } from '@nestjs/common';
import { JsonLogger } from '@stdreg/server-kit';
import { IdentityConfig } from './identity.config';

/**
 * The configuration, validated once before the app is built, and the logger: provided to every module
 * (`global`), as they are the process's surroundings rather than a feature another one asks for.
 */
@Module({})
export class IdentityConfigModule {
  static forRoot(config: IdentityConfig, logger: JsonLogger): DynamicModule {
    return {
      module: IdentityConfigModule,
      global: true,
      providers: [
        { provide: IdentityConfig, useValue: config },
        { provide: JsonLogger, useValue: logger },
      ],
      exports: [IdentityConfig, JsonLogger],
    };
  }
}
