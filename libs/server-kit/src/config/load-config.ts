import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { productionProblems } from './production-config';

/**
 * How a number setting is written. `Number()` alone also reads `0x10`, `1e3`, `0b11` and ` 3003 ` as numbers, so a
 * typo or another tool's notation would start the service with a value nobody wrote.
 */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

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
  const defaults = new configClass() as Record<string, unknown>;
  const present: Record<string, string> = {};
  for (const key of Object.keys(defaults)) {
    const value = env[key];
    if (value !== undefined && value !== '') present[key] = value;
  }
  const unwritten = Object.keys(present).filter((key) => typeof defaults[key] === 'number' && !DECIMAL_INTEGER.test(present[key] ?? ''));
  for (const key of unwritten) delete present[key];
  const config = plainToInstance(configClass, present);
  const problems = [
    ...unwritten.map((key) => `${key}: must be a whole number in decimal digits (as 3001), nothing around it`),
    ...validateSync(config, { whitelist: true, forbidNonWhitelisted: false }).map(describe),
    ...productionProblems(config),
  ];
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
