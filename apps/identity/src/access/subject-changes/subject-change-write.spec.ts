import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { storedModel } from '../../sign-in/oidc/oidc-store.repository';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../../..');
const PLANTED = path.join(HERE, 'planted-write.ts');

/** Type-checks `source` as if it were a file of this folder: the line of each error. */
function errorLines(source: string): number[] {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.base.json'), ts.sys.readFile.bind(ts.sys));
  const options = { ...ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options, noEmit: true, types: ['node'] };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === PLANTED ? ts.createSourceFile(name, source, language, true) : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === PLANTED || fileExists.call(host, name);
  host.readFile = (name) => (name === PLANTED ? source : readFile.call(host, name));
  const program = ts.createProgram([PLANTED], options, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(PLANTED))
    .map((diagnostic) => diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!).line + 1);
}

const HEADER = `import type { EntityManager } from 'typeorm';
import type { KeysRepository } from '../keys/keys.repository';
import type { UsersRepository } from '../../people/users/users.repository';
import type { RegisteredAppsRepository } from '../../partners/registered-apps/registered-apps.repository';
import type { RoleBindingsRepository } from '../../people/role-bindings/role-bindings.repository';
import type { MergesRepository, UserMerge } from '../../people/unified-users/merges.repository';
import type { RevokedAccessTokensRepository } from '../../sign-in/oidc/revoked-access-tokens.repository';
import { storedModel, type OidcStoreRepository } from '../../sign-in/oidc/oidc-store.repository';
import { SubjectChange, SubjectChangeWrite, type SubjectChanges } from './subject-changes';
declare const manager: EntityManager;
declare const changes: SubjectChanges;
declare const keys: KeysRepository;
declare const users: UsersRepository;
declare const apps: RegisteredAppsRepository;
declare const bindings: RoleBindingsRepository;
declare const merges: MergesRepository;
declare const merge: UserMerge;
declare const tokens: RevokedAccessTokensRepository;
declare const store: OidcStoreRepository;
const binding = { id: 'b', uid: 'u', role: 'r', organizationId: null };
`;
/** Every repository write that ends or changes a subject, given `write` as its last argument. */
const WRITES = [
  `keys.revoke(manager, 'k'WRITE)`,
  `keys.expireCurrentSecret(manager, 'k', 0WRITE)`,
  `users.deleteUnifiedUserIfUnreferenced(manager, 'u'WRITE)`,
  `apps.softDelete(manager, 'r'WRITE)`,
  `bindings.insert(manager, bindingWRITE)`,
  `bindings.delete(manager, 'b'WRITE)`,
  `merges.moveAll(manager, 'm', 's'WRITE)`,
  `merges.moveBack(manager, mergeWRITE)`,
  `merges.release(manager, 'u'WRITE)`,
  `tokens.insert(manager, 'j', 'c', new Date()WRITE)`,
  `store.destroySubject('Grant', 'g'WRITE)`,
  `store.destroyGrant(manager, 'g'WRITE)`,
  `store.endSignInsOf(manager, 'u'WRITE)`,
];
const INSIDE = WRITES.map((write) => `void changes.apply(SubjectChange.accessTokens(), (write) => ${write.replace('WRITE', ', write')});`);
const OUTSIDE = WRITES.map((write) => `void ${write.replace('WRITE', '')};`);
const FORGED = [
  `const made = new SubjectChangeWrite(SubjectChange.accessTokens());`,
  `const lookalike: SubjectChangeWrite = { change: SubjectChange.accessTokens() };`,
  `void [made, lookalike];`,
];
/** A grant or a client is removed only with the proof: the store's plain `destroy` takes only what storedModel sorted as another model. */
const DESTROYS = [
  `void store.destroy('Grant', 'g');`,
  `void store.destroy('Client', 'c');`,
  `const sorted = storedModel('Session');`,
  `if (sorted.kind === 'other') void store.destroy(sorted.model, 's');`,
  `if (sorted.kind === 'subject') void store.destroy(sorted.model, 's');`,
];
const PARTS = [INSIDE, OUTSIDE, FORGED, DESTROYS];
type Part = 0 | 1 | 2 | 3;
/** The planted file's lines: the header, then each part; the first line of each part. */
const firstLine = (part: Part) => HEADER.split('\n').length + PARTS.slice(0, part).reduce((sum, lines) => sum + lines.length, 0);
const lines = (part: Part, count: number) => Array.from({ length: count }, (_, i) => firstLine(part) + i);

describe('SubjectChangeWrite: a subject-ending write cannot skip SubjectChanges.apply', () => {
  let errors: number[];
  beforeAll(() => {
    errors = errorLines(HEADER + PARTS.flat().join('\n'));
  });
  const errorsIn = (part: Part, count: number) => errors.filter((line) => lines(part, count).includes(line));

  it('compiles every subject-ending write made inside SubjectChanges.apply', () => {
    expect(errorsIn(0, INSIDE.length)).toEqual([]);
  });

  it('refuses each of them made without the proof only apply gives', () => {
    expect(errorsIn(1, OUTSIDE.length)).toEqual(lines(1, OUTSIDE.length));
  });

  it('refuses a proof made up outside apply', () => {
    expect(errorsIn(2, FORGED.length)).toEqual(lines(2, 2));
  });

  it("refuses a grant or a client given to the store's plain destroy, and takes another model sorted by storedModel", () => {
    const [grant, client, , other, subject] = lines(3, DESTROYS.length);
    expect(errorsIn(3, DESTROYS.length)).toEqual([grant, client, subject]);
    expect(errors).not.toContain(other);
    expect(storedModel('Grant').kind).toBe('subject');
    expect(storedModel('Client').kind).toBe('subject');
    expect(storedModel('Session').kind).toBe('other');
  });

  it('reports nothing else (the planted file resolves its imports)', () => {
    expect(errors.length).toBe(OUTSIDE.length + 2 + 3);
  });
});
