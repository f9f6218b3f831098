// Collects the errors of one validation run, each located by a JSON Pointer and described for people.
import { shortenedText } from '@stdreg/contracts';
import type { ScenarioError, ScenarioErrorCode } from '../scenario-error';

/** Where a value sits: its JSON Pointer and how a person would name it ("tier \"fee\", allocations[0]"). */
export interface Place {
  path: string;
  label: string;
}

export class ValidationIssues {
  readonly errors: ScenarioError[] = [];

  report(path: string, code: ScenarioErrorCode, message: string): void {
    this.errors.push({ path, code, message: message.charAt(0).toUpperCase() + message.slice(1) });
  }

  get count(): number {
    return this.errors.length;
  }
}

export function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

export function child(place: Place, key: string | number, label?: string): Place {
  const name = label ?? (typeof key === 'number' ? `[${key}]` : key);
  return { path: pointer(place.path, key), label: place.label ? `${place.label}, ${name}` : name };
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(shortenedText(value, 40, '…'));
  return `${typeof value} ${String(value)}`;
}

/** A top-level list item, named by its id when it has one (`tier "fee"`), else by index (`tiers[2]`). */
export function namedItem(list: Place, index: number, raw: unknown, idKey: string, noun: string): Place {
  const id = stringField(raw, idKey);
  return { path: pointer(list.path, index), label: id === undefined ? `${list.label}[${index}]` : `${noun} "${id}"` };
}

/** An entry of a tier's shares or allocations, with the participant it names: `tier "pool", shares[1] (participant "bob")`. */
export function participantEntry(list: Place, index: number, raw: unknown): Place {
  const id = stringField(raw, 'participantId');
  return { path: pointer(list.path, index), label: `${list.label}[${index}]${id === undefined ? '' : ` (participant "${id}")`}` };
}

function stringField(raw: unknown, key: string): string | undefined {
  const value = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Ids seen so far in one list, to point a repeated id back at its first use. */
export class FirstUses {
  private readonly indexOf = new Map<string, number>();

  /** Records `id` at `index` and returns undefined, or returns the index where it was used first. */
  claim(id: string, index: number): number | undefined {
    const first = this.indexOf.get(id);
    if (first === undefined) this.indexOf.set(id, index);
    return first;
  }

  get ids(): ReadonlySet<string> {
    return new Set(this.indexOf.keys());
  }
}
