import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { productionProblems } from './production-config';

/** Thrown at start when the environment is invalid; names every bad variable, never its value. */
export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}

/**
 * Builds a validated config object from environment variables. The class declares each
 * variable as a property with class-validator decorators and its default as an initializer; with
 * NODE_ENV=production, what its production rules refuse (`RequiredInProduction`, `DevelopmentOnly`) is refused too.
 */
export function loadConfig<T extends object>(configClass: new () => T, env: Record<string, string | undefined> = process.env): T {
  const declared = Object.keys(new configClass());
  const present: Record<string, string> = {};
  for (const key of declared) {
    const value = env[key];
    if (value !== undefined && value !== '') present[key] = value;
  }
  const config = plainToInstance(configClass, present);
  const problems = [...validateSync(config, { whitelist: true, forbidNonWhitelisted: false }).map(describe), ...productionProblems(config)];
  if (problems.length > 0) throw new ConfigValidationError(problems);
  return config;
}

/** For a process entry point: the validated config, or the problems on stderr and exit 1. */
export function loadConfigOrExit<T extends object>(service: string, configClass: new () => T): T {
  try {
    return loadConfig(configClass);
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${service}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

function describe(error: ValidationError): string {
  const constraints = Object.values(error.constraints ?? {}).join('; ');
  return `${error.property}: ${constraints || 'is invalid'}`;
}
