import { Module } from '@nestjs/common';
import { UnifiedUsersModule } from '../unified-users/unified-users.module';
import { RoleBindingsController } from './role-bindings.controller';
import { RoleBindingsRepository } from './role-bindings.repository';
import { RoleBindingsService } from './role-bindings.service';

@Module({
  imports: [UnifiedUsersModule],
  controllers: [RoleBindingsController],
  providers: [RoleBindingsRepository, RoleBindingsService],
})
export class RoleBindingsModule {}
