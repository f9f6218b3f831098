import { Transform, Type } from 'class-transformer';
import { statSync } from 'node:fs';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateBy } from 'class-validator';
import { AuthorizedServiceConfig } from '@stdreg/authz-client';
import { samplePackDirectory } from '@stdreg/registry-content';

const parseBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** A folder that is there: a pack folder mistyped was found out only on an empty registry's first start, as a refused pack. */
function IsExistingFolder(): PropertyDecorator {
  return ValidateBy({
    name: 'isExistingFolder',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && statSync(value, { throwIfNoEntry: false })?.isDirectory() === true,
      defaultMessage: () => 'must be a folder that exists (the content pack to import)',
    },
  });
}

/** standards-api's variables; identity's URL, the service credential and the decision settings are inherited. */
export class StandardsApiConfig extends AuthorizedServiceConfig {
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
  @IsExistingFolder()
  CONTENT_PACK_DIR?: string = undefined;

  /** How often each replica checks for a newly imported release. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3600)
  CONTENT_REFRESH_SECONDS = 10;

  /**
   * How far V8's heap may grow past what the last give-back left before an idle replica gives the unused part back
   * to the system (a compacting collection that pauses the replica: about 1 s at 100 000 terms, milliseconds at
   * the sample pack's size); 0: never, the heap is left to V8's own reducer.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65536)
  HEAP_GIVE_BACK_AFTER_MB = 64;

  /** `on`: this replica hands the outbox's events to identity (replicas may all do so; identity keeps each event once). */
  @IsIn(['on', 'off'])
  EVENT_RELAY: 'on' | 'off' = 'on';

  /** How often an idle relay looks for new events. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(60000)
  EVENT_RELAY_INTERVAL_MS = 250;

  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60000)
  EVENT_RELAY_TIMEOUT_MS = 5000;

  /**
   * How many times identity may refuse one event (400, 413, 422: the event, not the relay, is at fault) before it is
   * parked: kept in the outbox with its refusal, logged at error level and counted, while the events after it are
   * handed over. Between refusals the relay backs off (PollingLoop), so the default takes about a minute and a half.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  EVENT_HANDOVER_MAX_REFUSALS = 10;

  /**
   * How often a replica purges idempotency records a day old and confirmation challenges that ended a day ago:
   * once at start, then this long after each purge; a failed purge is logged and tried again (PollingLoop's back-off).
   */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(86400000)
  PURGE_INTERVAL_MS = 600000;

  /**
   * How many split projects an organization may hold that no rule version was made of (drafts, which nothing
   * discards): the next is refused with 409 `split_projects.draft_limit_reached`.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100000)
  SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION = 500;

  /** How many operating scenarios a split project may have: the next branch is refused with 409 `scenarios.limit_reached`. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10000)
  SPLIT_PROJECT_MAX_SCENARIOS = 100;

  /** How many revisions an operating scenario may have: the next change is refused with 409 `scenarios.revision_limit_reached`. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000000)
  SCENARIO_MAX_REVISIONS = 1000;

  get contentPackDirectory(): string {
    return this.CONTENT_PACK_DIR ?? samplePackDirectory();
  }
}
