import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { CommonServiceConfig, IsServiceUrl } from '@stdreg/server-kit';

/** Variables of a service that asks identity's decision endpoint (standards-api and the gateway). */
export class AuthorizedServiceConfig extends CommonServiceConfig {
  /** identity's base URL (without /v1; a path is kept, e.g. behind a proxy at /identity): where every protected request is decided. */
  @IsServiceUrl('IDENTITY_URL')
  IDENTITY_URL = 'http://127.0.0.1:3003';

  /**
   * This service's credential for identity's decision endpoint, as identity's DECISION_SERVICE_TOKENS pairs it with
   * this service; unset: every protected request is refused.
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{32,200}$/, {
    message: "must be 32-200 characters of [A-Za-z0-9_-], as its token in identity's DECISION_SERVICE_TOKENS",
  })
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

  /** The resource this service is, named in every decision question (RFC 8707 audience); absent: the standards API. */
  get decisionAudience(): string | undefined {
    return undefined;
  }
}
