import { IsInt, Max, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { CommonServiceConfig, ConfigValidationError, loadConfig } from '../src';

class ExampleConfig extends CommonServiceConfig {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  EXAMPLE_PORT = 3000;
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
});
