import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, isURL, Matches, Max, Min, ValidateBy } from 'class-validator';
import { RequiredInProduction } from './production-config';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * No `user:password@`: fetch refuses such a URL with an error that quotes it whole, so every failed call
 * wrote the password to the log (and undici's `request` drops it silently).
 */
const HTTP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'], disallow_auth: true };

/** An http(s) URL with its scheme written out (`identity:3003` would pass a looser check and fail at start), named in the message. */
export function IsHttpUrl(variable: string): PropertyDecorator {
  return IsUrl(HTTP_URL, { message: `${variable} must be an http(s) URL without credentials` });
}

/**
 * The base URL of another service of the platform, which `serviceUrl` joins paths to (its path kept, for a
 * service mounted under a prefix behind a proxy): an http(s) URL as `IsHttpUrl`, without a query or fragment,
 * which no joined path could keep.
 */
export function IsServiceUrl(variable: string): PropertyDecorator {
  return ValidateBy({
    name: 'isServiceUrl',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isURL(value, HTTP_URL) && !/[?#]/.test(value),
      defaultMessage: () =>
        `${variable} must be an http(s) URL without credentials and without a query or fragment (e.g. http://identity:3003 or https://proxy.example.com/identity)`,
    },
  });
}

/**
 * NODE_ENV written as production but not exactly `production` (`Production`, `prod`, ` production`): the service
 * would start as development, its development fallbacks taken, and nothing would say so. Refused.
 */
function NotProductionMisspelled(): PropertyDecorator {
  return ValidateBy({
    name: 'notProductionMisspelled',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || value === 'production' || !/^\s*prod(uction)?\s*$/i.test(value),
      defaultMessage: () =>
        'reads as production but is not exactly "production", which alone makes a production start (any other value is development): write production',
    },
  });
}

/** Variables every service reads. Each service extends this with its own port and dependencies. */
export class CommonServiceConfig {
  /**
   * `production` (the images set it): the service refuses to start with a development fallback or switch
   * (`RequiredInProduction`, `DevelopmentOnly`). Any other value, or none: development.
   */
  @IsOptional()
  @IsString()
  @NotProductionMisspelled()
  NODE_ENV?: string = undefined;

  /** Listening address: loopback by default, 0.0.0.0 in containers. */
  @IsString()
  HOST = '127.0.0.1';

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /** PostgreSQL connection string; when absent the service uses an embedded PGlite under DATA_DIR. */
  @RequiredInProduction('the service keeps its data in an embedded PGlite under DATA_DIR, one of its own on each replica', {
    text: 'the service has a database',
    applies: (config) => (config as CommonServiceConfig).hasDatabase,
  })
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string = undefined;

  @IsString()
  DATA_DIR = '.data';

  /**
   * How long an unused database connection stays open before the pool closes it (pg's own default).
   * The embedded database starts each new connection from a reset session, so any value is safe there.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(3600000)
  DATABASE_POOL_IDLE_TIMEOUT_MS = 10000;

  /**
   * On a PostgreSQL server, the longest one statement of a request may run, waits for locks included
   * (`statement_timeout` of the pool's connections). Past it PostgreSQL cancels the statement, the request's
   * transaction rolls back and the caller is answered 503 `database.timed_out` with Retry-After. The embedded
   * database does not enforce it.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600000)
  DATABASE_STATEMENT_TIMEOUT_MS = 5000;

  /**
   * The same bound for maintenance, which may run longer: migrations (the wait for another replica's included),
   * purges, the content pack import and its search index. 0 (default): none.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(86400000)
  DATABASE_MAINTENANCE_STATEMENT_TIMEOUT_MS = 0;

  /**
   * Run the database migrations when the service starts (default). `false`: a migration command or Job
   * runs them (`node migrate.js`), and the service refuses to start while one is pending.
   */
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'MIGRATE_ON_START must be true or false' })
  MIGRATE_ON_START = true;

  @Type(() => Number)
  @IsInt()
  @Min(1000)
  @Max(120000)
  SHUTDOWN_TIMEOUT_MS = 10000;

  /** Whether the service keeps data in a database (DATABASE_URL, or the embedded one); a service without overrides it. */
  get hasDatabase(): boolean {
    return true;
  }
}
