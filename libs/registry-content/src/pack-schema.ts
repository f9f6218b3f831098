import {
  boolean,
  calendarDate,
  httpsUri,
  integer,
  kebabId,
  list,
  localized,
  localizedList,
  exactLocalesOf,
  object,
  oneOf,
  optional,
  record,
  sha256Hex,
  text,
  timestamp,
  version,
  type Rule,
} from './schema';
import type { ContentPack } from './pack-types';

export const SECTION_ID = /^[A-Z]{2,5}-[0-9]{1,3}$/;
export const TASK_CODE = /^TSK-[0-9]{3}$/;
/** The records of one file: a list's default bound (10 000) is for lists inside a record; a glossary may hold 100 000 terms. */
const RECORDS = { min: 1, max: 1_000_000 };
const sectionId = text({ pattern: SECTION_ID, patternHint: 'a section id like RUL-3', maxLength: 16 });
const taskCode = text({ pattern: TASK_CODE, patternHint: 'a task code like TSK-012', maxLength: 16 });
const blockReference = text({ pattern: /^[A-Z]{2,5}-[0-9]{1,3}@[0-9]+\.[0-9]+$/, patternHint: '{sectionId}@{version}, e.g. RUL-3@2.0' });
const tag = text({ pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/, patternHint: 'lowercase kebab-case', maxLength: 40 });
const shortText = text({ maxLength: 200 });
const taskIo = object({ name: kebabId, description: localized });
const namesOfOneLanguage = list(text({ maxLength: 120 }), { max: 40 });
const designations = exactLocalesOf(namesOfOneLanguage);
/** Phrases of a clause's conditions (see ClauseConditions): cues of `|`-separated alternatives, at most 12 phrases a language. */
const conditionPhrases = exactLocalesOf(list(text({ maxLength: 600 }), { max: 12 }));

export const PACK_SCHEMA: Record<keyof ContentPack, Rule> = {
  pack: object({
    formatVersion: oneOf(1),
    packVersion: text({ pattern: /^[0-9]{4}\.[0-9]{1,2}\.[0-9]{1,3}$/, patternHint: 'YYYY.M.patch', maxLength: 20 }),
    title: localized,
    description: localized,
    publisher: shortText,
    locales: (value, path, report) => {
      if (!Array.isArray(value) || value.length !== 2 || value[0] !== 'en' || value[1] !== 'zh-Hans') {
        report(path, 'must be exactly ["en", "zh-Hans"]');
      }
    },
    citationFormat: oneOf('{sectionId}@{version}#{clauseId}'),
    policyCitationFormat: oneOf('{policyId}@{version}'),
  }),
  standards: list(
    object({
      sectionId,
      version,
      status: oneOf('current', 'superseded'),
      effectiveFrom: calendarDate,
      supersedes: optional(version),
      title: localized,
      summary: localized,
      clauses: list(
        object({
          clauseId: text({ pattern: /^[0-9]+(\.[0-9]+)?$/, patternHint: 'a clause id like 2 or 2.1' }),
          text: localized,
          conditions: optional(object({ requires: conditionPhrases, contradictedBy: conditionPhrases })),
        }),
        { min: 2, max: 50 },
      ),
      tags: list(tag, { min: 1, max: 8 }),
      source: object({ publisher: shortText, edition: shortText, uri: httpsUri, sha256: sha256Hex }),
    }),
    RECORDS,
  ),
  terms: list(
    object({
      termId: kebabId,
      term: localized,
      definition: localized,
      synonyms: localizedList,
      designations: optional(designations),
      related: optional(list(kebabId, { max: 20 })),
      standards: optional(list(sectionId, { max: 20 })),
    }),
    RECORDS,
  ),
  roles: list(
    object({
      role: kebabId,
      kind: oneOf('stakeholder', 'operational'),
      name: localized,
      description: localized,
      responsibilities: localizedList,
      canApprove: boolean,
    }),
    RECORDS,
  ),
  tasks: list(
    object({
      taskCode,
      title: localized,
      description: localized,
      roles: list(kebabId, { min: 1, max: 12 }),
      prerequisites: list(taskCode, { max: 25 }),
      inputs: list(taskIo, { min: 1, max: 20 }),
      outputs: list(taskIo, { min: 1, max: 20 }),
      acceptanceCriteria: list(localized, { min: 1, max: 20 }),
      standards: list(blockReference, { min: 1, max: 20 }),
    }),
    RECORDS,
  ),
  policies: list(
    object({
      policyId: kebabId,
      versions: list(
        object({
          version,
          effectiveFrom: calendarDate,
          effectiveTo: optional(calendarDate),
          title: localized,
          summary: localized,
          body: localized,
          citation: shortText,
        }),
        { min: 1, max: 50 },
      ),
    }),
    RECORDS,
  ),
  brand: object({
    snapshotId: kebabId,
    pinnedAt: timestamp,
    name: localized,
    tagline: localized,
    voice: localized,
    colors: record(text({ pattern: /^#[0-9A-Fa-f]{6}$/, patternHint: '#RRGGBB' }), { min: 2, keyPattern: /^[a-z][a-zA-Z0-9-]{0,31}$/ }),
    typography: object({ latin: shortText, han: shortText }),
    logo: object({ uri: httpsUri, sha256: sha256Hex }),
  }),
  splitTemplates: list(
    object({
      version,
      status: oneOf('current', 'superseded'),
      name: localized,
      description: localized,
      participantRoles: list(kebabId, { min: 1, max: 12 }),
      tiers: list(
        object({
          tierId: kebabId,
          kind: oneOf('fixed', 'percentage'),
          label: localized,
          capBasisPoints: optional(integer(1, 10000)),
        }),
        { min: 1, max: 20 },
      ),
      standards: list(blockReference, { max: 20 }),
    }),
    RECORDS,
  ),
};
