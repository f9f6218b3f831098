// Values shaped by a JSON schema from an OpenAPI document: valid-looking ones (so a request gets past the
// first check and into the code behind it), and the same with one thing wrong.
import fc from 'fast-check';
import { hostileJson, hostileText, withKey } from './hostile-values';
import type { Schema } from './openapi-operations';

/** Real values of the running platform (ids, a valid scenario, ...) a schema field may take, by field name. */
export type KnownValues = Record<string, unknown[]>;

const MAX_DEPTH = 6;

/** A value that satisfies the schema most of the time (`known` values of the same field name come first). */
export function validish(schema: Schema, known: KnownValues, field = '', depth = 0): fc.Arbitrary<unknown> {
  const fromKnown = known[field];
  const own = ownValue(schema, known, depth);
  return fromKnown?.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fromKnown) }, { weight: 1, arbitrary: own }) : own;
}

function ownValue(schema: Schema, known: KnownValues, depth: number): fc.Arbitrary<unknown> {
  const choices = (schema['oneOf'] ?? schema['anyOf']) as Schema[] | undefined;
  if (choices?.length) return fc.oneof(...choices.map((choice) => validish(choice, known, '', depth + 1)));
  const all = schema['allOf'] as Schema[] | undefined;
  if (all?.length) return validish(Object.assign({}, ...all) as Schema, known, '', depth + 1);
  if (Array.isArray(schema['enum']) && schema['enum'].length) return fc.constantFrom(...(schema['enum'] as unknown[]));
  if ('const' in schema) return fc.constant(schema['const']);
  if (schema['example'] !== undefined && depth > 0) return fc.constant(schema['example']);
  const type = Array.isArray(schema['type'])
    ? (schema['type'] as string[]).find((t) => t !== 'null')
    : (schema['type'] as string | undefined);
  const properties = schema['properties'] as Record<string, Schema> | undefined;
  if (type === 'object' || properties) return objectValue(schema, properties ?? {}, known, depth);
  switch (type) {
    case 'string':
      return stringValue(schema);
    case 'integer':
      return fc.integer({ min: numberOr(schema['minimum'], 0), max: numberOr(schema['maximum'], 1000) });
    case 'number': {
      const [min, max] = [numberOr(schema['minimum'], 0), numberOr(schema['maximum'], 1000)];
      return fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.double({ min, max, noNaN: true }));
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      if (depth >= MAX_DEPTH) return fc.constant([]);
      const items = (schema['items'] as Schema | undefined) ?? {};
      return fc.array(validish(items, known, '', depth + 1), {
        minLength: numberOr(schema['minItems'], 0),
        maxLength: Math.min(numberOr(schema['maxItems'], 3), 3),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectValue(schema: Schema, properties: Record<string, Schema>, known: KnownValues, depth: number): fc.Arbitrary<unknown> {
  if (depth >= MAX_DEPTH) return fc.constant({});
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  const fields = Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, validish(field, known, name, depth + 1)]));
  return fc.record(fields, { requiredKeys: [...required].filter((name) => name in properties) });
}

function stringValue(schema: Schema): fc.Arbitrary<string> {
  const format = schema['format'];
  if (format === 'uuid') return fc.uuid();
  if (format === 'date-time')
    return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (format === 'date')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (format === 'email' || format === 'idn-email') return fc.emailAddress();
  if (format === 'uri') return fc.webUrl();
  if (typeof schema['pattern'] === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema['pattern'] as string)).filter((text) => text.length <= 200);
    } catch {
      // a pattern JavaScript cannot compile: plain text instead
    }
  }
  const minLength = numberOr(schema['minLength'], 0);
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(numberOr(schema['maxLength'], 30), 30)) });
}

const numberOr = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/** A valid-looking value with one thing wrong: a field missing, a field too many, or one field of the wrong kind. */
export function mutated(schema: Schema, known: KnownValues): fc.Arbitrary<unknown> {
  return fc
    .tuple(validish(schema, known), fc.nat(), fc.constantFrom('drop', 'extra', 'replace'), hostileJson(), hostileText())
    .map(([value, pick, mutation, hostile, extraKey]) => mutate(value, pick, mutation, hostile, extraKey));
}

/**
 * One change at any depth, every object and array of the value being as likely a place as the root (so a
 * scenario's content, the biggest part of a body, is where most changes land).
 */
function mutate(value: unknown, pick: number, mutation: 'drop' | 'extra' | 'replace', hostile: unknown, extraKey: string): unknown {
  if (!value || typeof value !== 'object') return hostile;
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  const containers = containersOf(copy);
  const target = containers[pick % containers.length]!;
  const keys = Object.keys(target);
  const key = keys[(pick >> 8) % Math.max(keys.length, 1)];
  if (mutation === 'extra' || key === undefined) {
    if (Array.isArray(target)) target.push(hostile);
    else withKey(target, extraKey.slice(0, 64), hostile);
  } else if (mutation === 'drop') {
    if (Array.isArray(target)) target.splice(Number(key), 1);
    else delete target[key];
  } else {
    target[key] = hostile;
  }
  return copy;
}

function containersOf(root: Record<string, unknown>): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const pending: unknown[] = [root];
  while (pending.length && found.length < 1000) {
    const current = pending.pop();
    if (!current || typeof current !== 'object') continue;
    found.push(current as Record<string, unknown>);
    pending.push(...Object.values(current));
  }
  return found;
}
