import { Module } from '@nestjs/common';
import { RegisteredAppsModule } from '../registered-apps/registered-apps.module';
import { UsersModule } from '../users/users.module';
import { SyncController } from './sync.controller';
import { SyncService } from './sync.service';

@Module({
  imports: [RegisteredAppsModule, UsersModule],
  controllers: [SyncController],
  providers: [SyncService],
})
export class SyncModule {}
