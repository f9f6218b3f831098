import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { CommonServiceConfig } from '@stdreg/server-kit';
import { samplePackDirectory } from '@stdreg/registry-content';

const parseBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class StandardsApiConfig extends CommonServiceConfig {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  STANDARDS_API_PORT = 3001;

  /** Import the content pack when the registry is empty (first start). */
  @Transform(parseBoolean)
  @IsBoolean({ message: 'CONTENT_AUTO_IMPORT must be true or false' })
  CONTENT_AUTO_IMPORT = true;

  /** Folder of the content pack to import on first start; default: the sample pack. */
  @IsOptional()
  @IsString()
  CONTENT_PACK_DIR?: string = undefined;

  /** How often each replica checks for a newly imported release. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3600)
  CONTENT_REFRESH_SECONDS = 10;

  /** identity's base URL (without /v1): every protected request is decided there. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'IDENTITY_URL must be an http(s) URL' })
  IDENTITY_URL = 'http://127.0.0.1:3003';

  /** This service's credential for identity's decision endpoint; unset: every protected request is 503. */
  @IsOptional()
  @IsString()
  IDENTITY_SERVICE_TOKEN?: string = undefined;

  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(30000)
  AUTHZ_TIMEOUT_MS = 2000;

  /** How long an allow for a read may be reused (never for writes); 0 turns it off. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1000)
  AUTHZ_READ_CACHE_MS = 1000;

  get contentPackDirectory(): string {
    return this.CONTENT_PACK_DIR ?? samplePackDirectory();
  }
}
