// A small structural schema language for the content pack: each rule checks a value at a JSON
// Pointer and reports what is wrong there; objects reject unknown keys.
import { holdsVisibleText, LOCALES, shortenedText } from '@stdreg/contracts';

export type Report = (path: string, message: string) => void;
export type Rule = (value: unknown, path: string, report: Report) => void;

const OPTIONAL = Symbol('optional');
type FieldRule = Rule & { [OPTIONAL]?: true };

export function optional(rule: Rule): FieldRule {
  const wrapped: FieldRule = (value, path, report) => rule(value, path, report);
  wrapped[OPTIONAL] = true;
  return wrapped;
}

export function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : shortenedText(`${typeof value} ${JSON.stringify(value)}`, 60, '…');
}

export function text(options: { pattern?: RegExp; patternHint?: string; maxLength?: number } = {}): Rule {
  const maxLength = options.maxLength ?? 4000;
  return (value, path, report) => {
    if (typeof value !== 'string') return report(path, `must be a string, found ${describe(value)}`);
    if (!holdsVisibleText(value)) return report(path, 'must not be empty');
    if (value.length > maxLength) return report(path, `must be at most ${maxLength} characters`);
    if (options.pattern && !options.pattern.test(value)) {
      report(path, `must match ${options.patternHint ?? options.pattern.source}, found ${JSON.stringify(value)}`);
    }
  };
}

export function oneOf<T extends string | number>(...allowed: T[]): Rule {
  return (value, path, report) => {
    if (!allowed.includes(value as T)) {
      report(path, `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, found ${describe(value)}`);
    }
  };
}

export function integer(min: number, max: number): Rule {
  return (value, path, report) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) return report(path, `must be an integer, found ${describe(value)}`);
    if (value < min || value > max) report(path, `must be between ${min} and ${max}, found ${value}`);
  };
}

export const boolean: Rule = (value, path, report) => {
  if (typeof value !== 'boolean') report(path, `must be true or false, found ${describe(value)}`);
};

export const calendarDate: Rule = (value, path, report) => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return report(path, `must be a date YYYY-MM-DD, found ${describe(value)}`);
  }
  const parsed = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) {
    report(path, `is not a real calendar date: ${value}`);
  }
};

export const timestamp: Rule = (value, path, report) => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value) || Number.isNaN(Date.parse(value))) {
    report(path, `must be an RFC 3339 UTC timestamp like 2026-10-01T00:00:00Z, found ${describe(value)}`);
  }
};

export const httpsUri = text({ pattern: /^https:\/\/[^\s/?#]+[^\s]*$/, patternHint: 'an absolute https URI' });
export const sha256Hex = text({ pattern: /^[0-9a-f]{64}$/, patternHint: '64 lowercase hexadecimal digits' });
export const kebabId = text({ pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/, patternHint: 'lowercase kebab-case', maxLength: 64 });
export const version = text({ pattern: /^[0-9]+\.[0-9]+$/, patternHint: 'major.minor, e.g. 1.0', maxLength: 16 });

/** An object with exactly the two locales, each a non-empty string. */
export const localized: Rule = exactLocalesOf(text());

/** An object with exactly the two locales, each an array of non-empty strings. */
export const localizedList: Rule = exactLocalesOf(list(text(), { min: 0, max: 50 }));

/** An object with exactly the two locales, each checked by `rule`. */
export function exactLocalesOf(rule: Rule): Rule {
  return (value, path, report) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return report(path, `must be a localized object with "en" and "zh-Hans", found ${describe(value)}`);
    }
    const record = value as Record<string, unknown>;
    for (const locale of LOCALES) {
      if (!(locale in record)) report(pointer(path, locale), `is missing: every localized field needs both en and zh-Hans`);
      else rule(record[locale], pointer(path, locale), report);
    }
    for (const key of Object.keys(record)) {
      if (!(LOCALES as readonly string[]).includes(key)) report(pointer(path, key), `is not a supported locale (en, zh-Hans)`);
    }
  };
}

export function list(item: Rule, bounds: { min?: number; max?: number } = {}): Rule {
  const { min = 0, max = 10000 } = bounds;
  return (value, path, report) => {
    if (!Array.isArray(value)) return report(path, `must be an array, found ${describe(value)}`);
    if (value.length < min) report(path, `must have at least ${min} item${min === 1 ? '' : 's'}, found ${value.length}`);
    if (value.length > max) report(path, `must have at most ${max} items, found ${value.length}`);
    value.forEach((entry, index) => item(entry, pointer(path, index), report));
  };
}

export function record(valueRule: Rule, bounds: { min: number; keyPattern: RegExp }): Rule {
  return (value, path, report) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return report(path, `must be an object, found ${describe(value)}`);
    }
    const entries = Object.entries(value);
    if (entries.length < bounds.min) report(path, `must have at least ${bounds.min} entries`);
    for (const [key, entry] of entries) {
      if (!bounds.keyPattern.test(key)) report(pointer(path, key), `is not an accepted key (${bounds.keyPattern.source})`);
      valueRule(entry, pointer(path, key), report);
    }
  };
}

export function object(fields: Record<string, FieldRule>): Rule {
  return (value, path, report) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return report(path, `must be an object, found ${describe(value)}`);
    }
    const entries = value as Record<string, unknown>;
    for (const [key, rule] of Object.entries(fields)) {
      if (entries[key] === undefined) {
        if (!rule[OPTIONAL]) report(pointer(path, key), 'is required');
      } else {
        rule(entries[key], pointer(path, key), report);
      }
    }
    for (const key of Object.keys(entries)) {
      if (!(key in fields)) report(pointer(path, key), 'is not an accepted field');
    }
  };
}
