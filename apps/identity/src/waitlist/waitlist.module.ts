import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { WaitlistController } from './waitlist.controller';
import { WaitlistRepository } from './waitlist.repository';
import { WaitlistService } from './waitlist.service';

@Module({
  imports: [OrganizationsModule],
  controllers: [WaitlistController],
  providers: [WaitlistRepository, WaitlistService],
})
export class WaitlistModule {}
