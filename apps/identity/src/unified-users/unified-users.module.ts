import { Module } from '@nestjs/common';
import { MergesRepository } from './merges.repository';
import { MergesService } from './merges.service';
import { UnifiedUsersController } from './unified-users.controller';
import { UnifiedUsersRepository } from './unified-users.repository';
import { UnifiedUsersService } from './unified-users.service';

@Module({
  controllers: [UnifiedUsersController],
  providers: [UnifiedUsersRepository, UnifiedUsersService, MergesRepository, MergesService],
  exports: [UnifiedUsersService],
})
export class UnifiedUsersModule {}
