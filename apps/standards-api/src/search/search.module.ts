import { Module } from '@nestjs/common';
import { RegistryModule } from '../registry/registry.module';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';

@Module({
  imports: [RegistryModule],
  controllers: [SearchController],
  providers: [SearchService],
  exports: [SearchService],
})
export class SearchModule {}
