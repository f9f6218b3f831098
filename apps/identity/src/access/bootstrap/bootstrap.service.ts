import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import path from 'node:path';
import { JsonLogger } from '@stdreg/server-kit';
import { IdentityConfig } from '../../platform/config/identity.config';
import { KeysService } from '../keys/keys.service';
import { bootstrapPlatformKey, BOOTSTRAP_KEY_FILE } from './first-platform-key';

/** First start: a platform key for the operator, written to DATA_DIR/bootstrap-platform-key. */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  constructor(
    private readonly keys: KeysService,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.BOOTSTRAP_PLATFORM_KEY !== 'auto') return;
    const file = path.resolve(this.config.DATA_DIR, BOOTSTRAP_KEY_FILE);
    const prefix = await bootstrapPlatformKey(this.keys, file);
    if (prefix) this.logger.event('info', 'created the first platform key', { prefix, file }, 'Bootstrap');
  }
}
