import { Module } from '@nestjs/common';
import { RegisteredAppsController } from './registered-apps.controller';
import { RegisteredAppsRepository } from './registered-apps.repository';
import { RegisteredAppsService } from './registered-apps.service';

@Module({
  controllers: [RegisteredAppsController],
  providers: [RegisteredAppsRepository, RegisteredAppsService],
  exports: [RegisteredAppsService],
})
export class RegisteredAppsModule {}
