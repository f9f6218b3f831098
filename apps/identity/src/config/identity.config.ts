import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { CommonServiceConfig } from '@stdreg/server-kit';

export class IdentityConfig extends CommonServiceConfig {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  IDENTITY_PORT = 3003;
}
