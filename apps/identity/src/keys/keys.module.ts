import { Module } from '@nestjs/common';
import { KeysController } from './keys.controller';

/** The keys API; the keys themselves are checked on every request by the core module's guards. */
@Module({ controllers: [KeysController] })
export class KeysModule {}
