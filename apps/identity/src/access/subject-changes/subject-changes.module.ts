import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { LeasesModule } from '../callers/leases.module';
import { SubjectChangeChannel } from './subject-change-channel';
import { SubjectChanges } from './subject-changes';
import { SubjectChangesController } from './subject-changes.controller';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';

/** The one path of writes that end or change a subject, and the stream that tells the services. */
@Module({
  imports: [IdentityConfigModule, CallersModule, LeasesModule],
  controllers: [SubjectChangesController],
  providers: [SubjectChanges, SubjectChangeChannel],
  exports: [SubjectChanges],
})
export class SubjectChangesModule {}
