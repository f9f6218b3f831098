import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { CommonServiceConfig, ConfigValidationError, DevelopmentOnly, loadConfig, RequiredInProduction } from '../src';

class ExampleConfig extends CommonServiceConfig {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  EXAMPLE_PORT = 3000;
}

class ExampleWithDevelopmentFallbacks extends ExampleConfig {
  @RequiredInProduction('a key for development is made up')
  @IsOptional()
  @IsString()
  EXAMPLE_KEY?: string = undefined;

  @DevelopmentOnly()
  @IsIn(['true', 'false'])
  EXAMPLE_SHORTCUT: 'true' | 'false' = 'false';
}

describe('loadConfig', () => {
  it('applies defaults and reads the variables it declares', () => {
    const config = loadConfig(ExampleConfig, { EXAMPLE_PORT: '4100', UNRELATED: 'x' });
    expect(config.EXAMPLE_PORT).toBe(4100);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('fails fast naming every bad variable, never echoing its value', () => {
    let error: unknown;
    try {
      loadConfig(ExampleConfig, { EXAMPLE_PORT: 'eighty', LOG_LEVEL: 'chatty', DATABASE_URL: 'mysql://secret-password@db/x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const { problems, message } = error as ConfigValidationError;
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['DATABASE_URL', 'EXAMPLE_PORT', 'LOG_LEVEL']);
    expect(message).not.toContain('secret-password');
    expect(message).not.toContain('eighty');
  });

  it.each([
    ['DATABASE_POOL_IDLE_TIMEOUT_MS', ['-1', '0', '99', '3600001', '1500.5']],
    ['DATABASE_STATEMENT_TIMEOUT_MS', ['-1', '0', '99', '600001', 'five', '1500.5']],
    ['DATABASE_MAINTENANCE_STATEMENT_TIMEOUT_MS', ['-1', '86400001', 'none']],
    ['SHUTDOWN_TIMEOUT_MS', ['-1', '0', '999', '120001']],
    ['MIGRATE_ON_START', ['yes', '1']],
    ['DATABASE_URL', ['postgres://', 'redis://db/x']],
  ])('refuses %s outside its bounds or form, naming it', (variable, values) => {
    for (const value of values) {
      expect(() => loadConfig(ExampleConfig, { [variable]: value })).toThrow(new RegExp(`\\n  - ${variable}: `));
    }
  });

  it.each(['0x10', '1e3', '0b11', '0o7', ' 3003', '3003 ', '+3003', '3_003', '３００３', '3003.0', 'Infinity'])(
    'refuses a number setting written %j, not decimal digits alone, naming it',
    (value) => {
      expect(() => loadConfig(ExampleConfig, { EXAMPLE_PORT: value })).toThrow(
        /\n {2}- EXAMPLE_PORT: must be a whole number in decimal digits/,
      );
    },
  );

  it('reads a number setting written in decimal digits, leading zeros and a minus sign included, and bounds it as before', () => {
    expect(loadConfig(ExampleConfig, { EXAMPLE_PORT: '08080' }).EXAMPLE_PORT).toBe(8080);
    expect(() => loadConfig(ExampleConfig, { EXAMPLE_PORT: '-1' })).toThrow(/\n {2}- EXAMPLE_PORT: EXAMPLE_PORT must not be less than 1/);
  });

  it('refuses, with NODE_ENV=production only, a development fallback and a development switch, beside the other problems', () => {
    let error: unknown;
    try {
      loadConfig(ExampleWithDevelopmentFallbacks, { NODE_ENV: 'production', EXAMPLE_SHORTCUT: 'true', EXAMPLE_PORT: '0' });
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigValidationError).problems).toEqual([
      expect.stringMatching(/^EXAMPLE_PORT: /),
      'EXAMPLE_KEY: must be set when NODE_ENV=production (unset, a key for development is made up)',
      'EXAMPLE_SHORTCUT: is for development and tests only: NODE_ENV=production refuses it on',
      'DATABASE_URL: must be set when NODE_ENV=production and the service has a database (unset, the service keeps its data in an embedded PGlite under DATA_DIR, one of its own on each replica)',
    ]);
    const database = { DATABASE_URL: 'postgres://example@db/example' };
    expect(loadConfig(ExampleWithDevelopmentFallbacks, { NODE_ENV: 'production', EXAMPLE_KEY: 'set', ...database }).EXAMPLE_KEY).toBe(
      'set',
    );
    expect(loadConfig(ExampleWithDevelopmentFallbacks, { NODE_ENV: 'development', EXAMPLE_SHORTCUT: 'true' }).EXAMPLE_SHORTCUT).toBe(
      'true',
    );
    expect(loadConfig(ExampleWithDevelopmentFallbacks, { EXAMPLE_SHORTCUT: 'true' }).NODE_ENV).toBeUndefined();
  });

  it('refuses a NODE_ENV that reads as production but is not exactly production: it would start as development, unnoticed', () => {
    for (const nodeEnv of ['Production', 'PRODUCTION', 'prod', ' production', 'production\n']) {
      expect(() => loadConfig(ExampleWithDevelopmentFallbacks, { NODE_ENV: nodeEnv })).toThrow(
        /NODE_ENV: reads as production but is not exactly "production"/,
      );
    }
    for (const nodeEnv of ['development', 'test', 'staging', 'production-like', 'preprod']) {
      expect(loadConfig(ExampleWithDevelopmentFallbacks, { NODE_ENV: nodeEnv }).NODE_ENV).toBe(nodeEnv);
    }
  });

  it('refuses, with NODE_ENV=production, the embedded database of a service that has one: each replica would keep data of its own', () => {
    class WithoutDatabase extends ExampleConfig {
      override get hasDatabase(): boolean {
        return false;
      }
    }
    expect(() => loadConfig(ExampleConfig, { NODE_ENV: 'production' })).toThrow(
      /DATABASE_URL: must be set when NODE_ENV=production and the service has a database/,
    );
    expect(loadConfig(ExampleConfig, { NODE_ENV: 'production', DATABASE_URL: 'postgres://example@db/example' }).DATABASE_URL).toBe(
      'postgres://example@db/example',
    );
    expect(loadConfig(WithoutDatabase, { NODE_ENV: 'production' }).DATABASE_URL).toBeUndefined();
    expect(loadConfig(ExampleConfig, {}).DATABASE_URL).toBeUndefined();
  });
});
