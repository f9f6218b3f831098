import { Module } from '@nestjs/common';
import { HealthModule } from '@stdreg/server-kit';

@Module({
  imports: [HealthModule.register({ useValue: [] })],
})
export class AppModule {}
