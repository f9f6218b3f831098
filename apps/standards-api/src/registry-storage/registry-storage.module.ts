import { Module } from '@nestjs/common';
import { RegistryRepository } from './registry.repository';

/** The registry tables, shared by the read side and the content import. */
@Module({ providers: [RegistryRepository], exports: [RegistryRepository] })
export class RegistryStorageModule {}
