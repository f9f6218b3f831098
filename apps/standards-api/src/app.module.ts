import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { downstreamServiceCheck, HealthModule } from '@stdreg/server-kit';
import { DatabaseModule, databaseReadinessCheck } from '@stdreg/server-kit/database';
import { StandardsApiConfig } from './config/standards-api.config';
import { STANDARDS_API_MIGRATIONS } from './migrations';
import { REGISTRY_ENTITIES } from './registry-storage/registry.entity';
import { RegistryModule } from './registry/registry.module';
import { RegistryService } from './registry/registry.service';
import { SearchModule } from './search/search.module';
import { SplitProjectsModule } from './split-projects/split-projects.module';
import { RuleVersionsModule } from './rule-versions/rule-versions.module';
import { ComparisonsModule } from './comparisons/comparisons.module';
import { SettlementsModule } from './settlements/settlements.module';
import { EventsModule } from './events/events.module';

@Module({})
export class AppModule {
  static register(config: StandardsApiConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        DatabaseModule.forRoot({
          service: 'standards-api',
          ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
          dataDir: config.DATA_DIR,
          poolIdleTimeoutMs: config.DATABASE_POOL_IDLE_TIMEOUT_MS,
          statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
          maintenanceStatementTimeoutMs: config.DATABASE_MAINTENANCE_STATEMENT_TIMEOUT_MS,
          entities: REGISTRY_ENTITIES,
          migrations: STANDARDS_API_MIGRATIONS,
        }),
        RegistryModule,
        SearchModule,
        EventsModule,
        SplitProjectsModule,
        RuleVersionsModule,
        ComparisonsModule,
        SettlementsModule,
        HealthModule.register(
          {
            useFactory: (dataSource: DataSource, registry: RegistryService) => [
              databaseReadinessCheck(dataSource),
              {
                name: 'registry-content',
                check: async () => {
                  if (!registry.isLoaded) throw new Error('no content');
                },
              },
              downstreamServiceCheck('identity', config.IDENTITY_URL),
            ],
            inject: [DataSource, RegistryService],
          },
          [RegistryModule],
        ),
      ],
    };
  }
}
