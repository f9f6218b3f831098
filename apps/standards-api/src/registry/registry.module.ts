import { Module } from '@nestjs/common';
import { ContentImportModule } from '../content-import/content-import.module';
import { RegistryController } from './registry.controller';
import { RegistryService } from './registry.service';
import { RegistryStorageModule } from '../registry-storage/registry-storage.module';
import { StandardsApiConfigModule } from '../config/standards-api-config.module';

@Module({
  imports: [StandardsApiConfigModule, RegistryStorageModule, ContentImportModule],
  controllers: [RegistryController],
  providers: [RegistryService],
  exports: [RegistryService],
})
export class RegistryModule {}
