import { Module } from '@nestjs/common';
import { KeysModule } from '../keys/keys.module';
import { BootstrapService } from './bootstrap.service';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';

/** The first platform key on a first start; its queries are the keys feature's (KeysService.issueFirstPlatformKey). */
@Module({
  imports: [IdentityConfigModule, KeysModule],
  providers: [BootstrapService],
})
export class BootstrapModule {}
