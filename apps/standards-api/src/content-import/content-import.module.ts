import { Module } from '@nestjs/common';
import { RegistryStorageModule } from '../registry-storage/registry-storage.module';
import { ContentImportService } from './content-import.service';

@Module({ imports: [RegistryStorageModule], providers: [ContentImportService], exports: [ContentImportService] })
export class ContentImportModule {}
