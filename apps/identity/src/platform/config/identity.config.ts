import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min, ValidateBy } from 'class-validator';
import { canonicalResourceUrl, MAX_FORMAL_WRITE_MAX_AGE_SECONDS } from '@stdreg/contracts';
import {
  CommonServiceConfig,
  DevelopmentOnly,
  HttpsInProduction,
  NotPublishedInProduction,
  RequiredInProduction,
} from '@stdreg/server-kit';
import { jwksProblem } from './jwks';

const toInt = () => Type(() => Number);

/** The routes a service credential may be given, each behind `ServiceAuth(right)`. */
export const SERVICE_RIGHTS = ['decisions', 'token-exchange', 'event-handover'] as const;
export type ServiceRight = (typeof SERVICE_RIGHTS)[number];

const SERVICE_RIGHT = `(?:${SERVICE_RIGHTS.join('|')})`;
const SERVICE_RIGHTS_ENTRY = `[a-z][a-z0-9-]{0,40}=${SERVICE_RIGHT}(?:\\+${SERVICE_RIGHT})*`;
const SERVICE_RIGHTS_PATTERN = new RegExp(`^${SERVICE_RIGHTS_ENTRY}(?:,${SERVICE_RIGHTS_ENTRY})*$`);

function serviceRightsOf(text: string): Map<string, Set<ServiceRight>> {
  return new Map(
    text.split(',').map((entry) => {
      const [name, rights] = entry.split('=') as [string, string];
      return [name, new Set(rights.split('+') as ServiceRight[])];
    }),
  );
}

/** SERVICE_RIGHTS names only services DECISION_SERVICE_TOKENS has, each once. */
function NamesServices(): PropertyDecorator {
  const problem = (value: unknown, config: IdentityConfig): string | null => {
    if (typeof value !== 'string' || !SERVICE_RIGHTS_PATTERN.test(value)) return null;
    const names = value.split(',').map((entry) => entry.split('=')[0]!);
    const known = new Set(config.serviceTokens.values());
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length > 0) return `names ${unknown.join(', ')}, which DECISION_SERVICE_TOKENS does not`;
    const twice = names.filter((name, index) => names.indexOf(name) !== index);
    return twice.length > 0 ? `names ${twice.join(', ')} more than once` : null;
  };
  return ValidateBy({
    name: 'namesServices',
    validator: {
      validate: (value: unknown, args) => problem(value, args?.object as IdentityConfig) === null,
      defaultMessage: (args) => problem(args?.value, args?.object as IdentityConfig) ?? '',
    },
  });
}

/** DECISION_SERVICE_TOKENS gives each token to one service only: a token named twice would hold the last name's rights. */
function EachTokenOnce(): PropertyDecorator {
  const twice = (value: unknown): string[] => {
    if (typeof value !== 'string') return [];
    const names = value.split(',').map((pair) => pair.split(':') as [string, string]);
    return names.filter(([, token], index) => names.findIndex(([, other]) => other === token) !== index).map(([name]) => name);
  };
  return ValidateBy({
    name: 'eachTokenOnce',
    validator: {
      validate: (value: unknown) => twice(value).length === 0,
      defaultMessage: (args) => `gives ${twice(args?.value).join(', ')} a token another service has: each service needs a token of its own`,
    },
  });
}

/** OIDC_JWKS holds signing keys the provider can use (`jwksProblem`), refused here so `--check-config` refuses it too. */
function IsSigningKeySet(): PropertyDecorator {
  return ValidateBy({
    name: 'isSigningKeySet',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && jwksProblem(value) === null,
      defaultMessage: (args) => (typeof args?.value === 'string' ? jwksProblem(args.value) : null) ?? 'must be a JSON Web Key Set',
    },
  });
}

/** OIDC_REGISTRATION `token` needs the token registrations must present. */
function HasRegistrationToken(): PropertyDecorator {
  return ValidateBy({
    name: 'hasRegistrationToken',
    validator: {
      validate: (value: unknown, args) =>
        value !== 'token' || (args?.object as IdentityConfig).OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN !== undefined,
      defaultMessage: () => 'is token, which needs OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN (the bearer token registrations present)',
    },
  });
}

/** A duration that must exceed another variable's. */
function LongerThan(other: keyof IdentityConfig & string): PropertyDecorator {
  return ValidateBy({
    name: 'longerThan',
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value > Number((args?.object as IdentityConfig)[other]),
      defaultMessage: (args) => `must be longer than ${other} (${(args?.object as IdentityConfig)[other]})`,
    },
  });
}

export class IdentityConfig extends CommonServiceConfig {
  @toInt()
  @IsInt()
  @Min(0)
  @Max(65535)
  IDENTITY_PORT = 3003;

  /** Redis for the shared rate-limit buckets; unset: an in-process store (one replica only). */
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string = undefined;

  /** Prefix of every key identity writes in Redis. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'must be 1-64 characters of [A-Za-z0-9:_-]' })
  REDIS_KEY_PREFIX = 'stdreg:identity:';

  /**
   * Service credentials the other services present to the decision endpoint, comma-separated,
   * each `name:token` with a token of at least 32 characters.
   */
  @IsOptional()
  @Matches(/^[a-z][a-z0-9-]{0,40}:[A-Za-z0-9_-]{32,200}(,[a-z][a-z0-9-]{0,40}:[A-Za-z0-9_-]{32,200})*$/, {
    message: 'must be comma-separated name:token pairs, each token 32-200 characters of [A-Za-z0-9_-]',
  })
  @EachTokenOnce()
  @NotPublishedInProduction()
  DECISION_SERVICE_TOKENS?: string = undefined;

  /**
   * What each service credential may do, comma-separated `name=right+right`, every name one of
   * DECISION_SERVICE_TOKENS's: `decisions` (decisions and the subject-change feed), `token-exchange`,
   * `event-handover`. Unset: every credential may do all three, which a production start refuses while there are
   * credentials (a compromised gateway could hand partners forged events). Set, a credential not named may do nothing.
   */
  @RequiredInProduction('every service credential may use every service route, event handover included', {
    text: 'DECISION_SERVICE_TOKENS is',
    applies: (config) => (config as IdentityConfig).DECISION_SERVICE_TOKENS !== undefined,
  })
  @IsOptional()
  @Matches(SERVICE_RIGHTS_PATTERN, {
    message: `must be comma-separated name=right+right entries, each right one of ${SERVICE_RIGHTS.join(', ')}`,
  })
  @NamesServices()
  SERVICE_RIGHTS?: string = undefined;

  /** How long a rotated key's previous secret keeps working, unless the rotation says otherwise. */
  @toInt()
  @IsInt()
  @Min(0)
  @Max(2592000)
  KEY_ROTATION_GRACE_SECONDS = 86400;

  /**
   * How long the decision endpoint may rely on a key it read (0: never). Revoking or rotating a key
   * answers this much later, when no replica relies on the old state any more.
   */
  @toInt()
  @IsInt()
  @Min(0)
  @Max(5000)
  KEY_LEASE_MS = 250;

  /**
   * How long the decision endpoint may rely on what it read of a user access token's subject (its
   * client, grant, revocation, merges and role bindings; 0: never). A write that ends any of those
   * answers this much later, when no replica relies on the old state any more.
   */
  @toInt()
  @IsInt()
  @Min(0)
  @Max(5000)
  TOKEN_SUBJECT_LEASE_MS = 250;

  /**
   * How often identity writes to an open subject-change stream when nothing changed: a service takes a
   * stream silent for three of these as down, and keeps no answers until it is open again.
   */
  @toInt()
  @IsInt()
  @Min(100)
  @Max(60000)
  SUBJECT_CHANGES_HEARTBEAT_MS = 5000;

  /** `auto`: on start, if there is no platform key, create one and write it to DATA_DIR/bootstrap-platform-key. */
  @IsIn(['auto', 'off'])
  BOOTSTRAP_PLATFORM_KEY: 'auto' | 'off' = 'auto';

  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_APP_PER_MINUTE = 60;
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_APP_BURST = 120;
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_APP_WRITES_PER_MINUTE = 20;
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_PLATFORM_PER_MINUTE = 120;
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_PLATFORM_BURST = 240;
  /** Anonymous waitlist requests per client IP: this many per hour, all of them at once at most. */
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_WAITLIST_PER_HOUR = 10;

  /** Express `trust proxy`: how many proxies in front set X-Forwarded-For (0: use the socket address). */
  @toInt()
  @IsInt()
  @Min(0)
  @Max(10)
  TRUSTED_PROXY_HOPS = 0;

  /**
   * The OpenID Provider's issuer, as clients see it; its path is where identity mounts the provider
   * (a proxy in front may change scheme and host, not the path). Default: http://127.0.0.1:<IDENTITY_PORT>/oidc.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/?#\s]+(\/[A-Za-z0-9._~-]+)+$/, {
    message: 'must be an http(s) URL with a path (e.g. https://id.example.com/oidc), without a trailing slash, query or fragment',
  })
  @HttpsInProduction()
  @RequiredInProduction('the issuer is http://127.0.0.1:<IDENTITY_PORT>/oidc, which only this machine reaches')
  OIDC_ISSUER?: string = undefined;

  /** Signing keys, a JWKS of private keys with `kid`s: the first key of an algorithm signs, all of them verify. Unset: generated once under DATA_DIR. */
  @RequiredInProduction('identity generates signing keys for development and keeps them under DATA_DIR')
  @IsOptional()
  @IsSigningKeySet()
  @NotPublishedInProduction()
  OIDC_JWKS?: string = undefined;

  /** Keys that sign the provider's cookies, comma-separated, newest first (older ones still verify). Unset: generated once under DATA_DIR. */
  @RequiredInProduction('identity generates a cookie key for development and keeps it under DATA_DIR')
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{32,200}(,[A-Za-z0-9_-]{32,200})*$/, {
    message: 'must be comma-separated keys of 32-200 characters of [A-Za-z0-9_-]',
  })
  @NotPublishedInProduction()
  OIDC_COOKIE_KEYS?: string = undefined;

  /** 32 bytes (base64url) that seal the apps' client secrets at rest. Unset: generated once under DATA_DIR. */
  @RequiredInProduction('identity generates the key sealing client secrets for development and keeps it under DATA_DIR')
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'must be 32 bytes in base64url (43 characters)' })
  @NotPublishedInProduction()
  OIDC_CLIENT_SECRET_KEY?: string = undefined;

  /** The resource indicator (and access-token audience) of the standards API. */
  @Matches(/^[a-z][a-z0-9+.-]*:[^\s#]+$/, { message: 'must be an absolute URI without a fragment' })
  OIDC_API_AUDIENCE = 'urn:stdreg:standards-api';

  @toInt() @IsInt() @Min(60) @Max(86400) OIDC_ACCESS_TOKEN_TTL_SECONDS = 600;

  /**
   * The tool gateway's MCP URL as agents reach it (its MCP_RESOURCE_URL): the resource agent clients
   * get tokens for, compared in canonical form (`mcpResource`). Default: http://127.0.0.1:3002/mcp.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i, {
    message: "must be the gateway's http(s) MCP URL without a query or fragment (e.g. https://platform.example.com/mcp)",
  })
  @HttpsInProduction()
  @RequiredInProduction("agents' tokens are for http://127.0.0.1:3002/mcp, a gateway only this machine reaches")
  OIDC_MCP_RESOURCE?: string = undefined;

  /**
   * How agent clients may register by Dynamic Client Registration (RFC 7591) at `<issuer>/reg`: `off`,
   * `open` (anyone), or `token` (with OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN as a bearer). Client ID
   * Metadata Documents need no registration and are always accepted.
   */
  @IsIn(['off', 'open', 'token'])
  @HasRegistrationToken()
  OIDC_REGISTRATION: 'off' | 'open' | 'token' = 'open';

  /** The initial access token Dynamic Client Registration asks for when OIDC_REGISTRATION is `token`. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{32,200}$/, { message: 'must be 32-200 characters of [A-Za-z0-9_-]' })
  @NotPublishedInProduction()
  OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN?: string = undefined;

  /**
   * Development and tests only: fetch Client ID Metadata Documents from loopback and private addresses
   * too (a local https server). Never in production: it lets a client id reach inside the network.
   */
  @DevelopmentOnly()
  @Type(() => String)
  @IsIn(['true', 'false'])
  OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES: 'true' | 'false' = 'false';

  /** `on`: this replica delivers partner events (any number of replicas share the work); `off`: it only records them. */
  @IsIn(['on', 'off'])
  WEBHOOK_DISPATCHER: 'on' | 'off' = 'on';

  /** How often an idle dispatcher looks for due deliveries. */
  @toInt() @IsInt() @Min(10) @Max(60000) WEBHOOK_POLL_INTERVAL_MS = 250;

  /**
   * A delivery succeeds on a 2xx within this time: 15 s by default and at most 30 s, the range Standard Webhooks
   * recommends ("somewhere between 15 and 30s"). A receiver that hangs holds a delivery place this long.
   */
  @toInt() @IsInt() @Min(100) @Max(30000) WEBHOOK_TIMEOUT_MS = 15000;

  /** Longer than WEBHOOK_TIMEOUT_MS: a stop waits for the attempts on the wire, so their outcomes are recorded. */
  @LongerThan('WEBHOOK_TIMEOUT_MS') override SHUTDOWN_TIMEOUT_MS = 20000;

  /**
   * How long a claimed delivery is a dispatcher's alone: longer than the timeout, so a live dispatcher
   * never sees its delivery sent by another at the same time; after a crash, another takes it up then.
   * Leases are written and compared by the database's clock, so replicas' clocks do not move them.
   */
  @toInt() @IsInt() @Min(200) @Max(600000) @LongerThan('WEBHOOK_TIMEOUT_MS') WEBHOOK_LEASE_MS = 60000;

  /** How many attempts one replica's dispatcher has on the wire at once, across endpoints. */
  @toInt() @IsInt() @Min(1) @Max(1000) WEBHOOK_MAX_IN_FLIGHT = 32;

  /**
   * How many attempts one endpoint has on the wire at once, across replicas: a receiver that hangs holds
   * this many places and no more, and no receiver gets more concurrent requests than this.
   */
  @toInt() @IsInt() @Min(1) @Max(100) WEBHOOK_ENDPOINT_CONCURRENCY = 4;

  /**
   * How many attempts one organization's endpoints have on the wire at once, across replicas: a partner
   * whose many endpoints hang holds this many places and no more, whatever its number of endpoints.
   */
  @toInt() @IsInt() @Min(1) @Max(1000) WEBHOOK_ORGANIZATION_CONCURRENCY = 16;

  /**
   * Development and tests only: http:// and loopback targets (a receiver on this machine). Without it,
   * endpoints are https and reach public addresses only.
   */
  @DevelopmentOnly()
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_LOOPBACK: 'true' | 'false' = 'false';

  /** Private networks (RFC 1918, unique-local) as webhook targets, for a deployment whose partners are inside. Never link-local or metadata. */
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' | 'false' = 'false';

  /**
   * How many endpoints (not removed) an organization may have at once: each one receives a delivery of every
   * event it asks for, and the dispatcher's claim reads every enabled endpoint, so more cost every partner.
   */
  @toInt() @IsInt() @Min(1) @Max(1000) WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION = 16;

  /** How long a rotated signing secret keeps signing beside the new one, unless the rotation says otherwise. */
  @toInt() @IsInt() @Min(0) @Max(604800) WEBHOOK_SECRET_OVERLAP_SECONDS = 86400;

  /**
   * A formal write needs a person who signed in at most this many seconds ago (the token's `auth_time`);
   * an older sign-in is denied `authentication_too_old`, and the person signs in again (RFC 9470 step-up).
   */
  @toInt() @IsInt() @Min(1) @Max(MAX_FORMAL_WRITE_MAX_AGE_SECONDS) FORMAL_WRITE_MAX_AGE_SECONDS = 300;
  @toInt() @IsInt() @Min(1) @Max(100) SIGNIN_MAX_FAILED_ATTEMPTS = 5;
  @toInt() @IsInt() @Min(1) @Max(86400) SIGNIN_LOCKOUT_SECONDS = 900;
  @toInt() @IsInt() @Min(60) @Max(2592000) PASSWORD_SETUP_TTL_SECONDS = 86400;
  /** Password checks one client IP may make per minute (all of them at once at most), whatever the accounts. */
  @toInt() @IsInt() @Min(1) @Max(100000) SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE = 30;
  /**
   * Dynamic Client Registrations (`<issuer>/reg`) one client IP may ask for per hour, answered or refused:
   * with OIDC_REGISTRATION `open`, each one answered is a client stored for good, for anyone who asks.
   */
  @toInt() @IsInt() @Min(1) @Max(100000) OIDC_REGISTRATIONS_PER_IP_PER_HOUR = 20;
  /**
   * Authorization requests (`<issuer>/auth`) and logouts (`<issuer>/session/end`) one client IP may start per
   * minute: each one the provider takes stores an interaction or a session, for anyone who asks.
   */
  @toInt() @IsInt() @Min(1) @Max(100000) OIDC_FLOWS_PER_IP_PER_MINUTE = 60;

  /**
   * How often a replica purges what ended: sign-in records (OIDC store) and password-setup links a day after
   * they ended. Once at start, then this long after each purge; a failed purge is logged and tried again
   * after at least as long (PollingLoop's back-off).
   */
  @toInt() @IsInt() @Min(10) @Max(86400000) PURGE_INTERVAL_MS = 600000;

  /** Development: also write every password-setup link to the log. */
  @DevelopmentOnly()
  @Type(() => String)
  @IsIn(['true', 'false'])
  PASSWORD_SETUP_LINKS_IN_LOG: 'true' | 'false' = 'false';

  get oidcIssuer(): string {
    return this.OIDC_ISSUER ?? `http://127.0.0.1:${this.IDENTITY_PORT}/oidc`;
  }

  /** The gateway's resource identifier in canonical form: the audience of every agent token. */
  get mcpResource(): string {
    return canonicalResourceUrl(this.OIDC_MCP_RESOURCE ?? 'http://127.0.0.1:3002/mcp');
  }

  /** Where identity mounts the provider: the issuer's path. */
  get oidcMountPath(): string {
    return new URL(this.oidcIssuer).pathname;
  }

  /** The origin the sign-in and password pages (`/v1/signin/…`, `/v1/password-setup/…`) are reached at: the issuer's. */
  get publicOrigin(): string {
    return new URL(this.oidcIssuer).origin;
  }

  /** Each named service's rights; null when SERVICE_RIGHTS is unset (every credential holds every right). */
  get serviceRights(): Map<string, Set<ServiceRight>> | null {
    if (this.SERVICE_RIGHTS === undefined) return null;
    return serviceRightsOf(this.SERVICE_RIGHTS);
  }

  /** Token → service name. */
  get serviceTokens(): Map<string, string> {
    const tokens = new Map<string, string>();
    for (const pair of (this.DECISION_SERVICE_TOKENS ?? '').split(',').filter(Boolean)) {
      const [name, token] = pair.split(':') as [string, string];
      tokens.set(token, name);
    }
    return tokens;
  }
}
