import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const QUERY_IN_REPOSITORY = 'Queries belong in a *.repository.ts (or a migration).';
const QUERIES_IN_REPOSITORIES = [
  { selector: "CallExpression[callee.property.name='query']", message: QUERY_IN_REPOSITORY },
  { selector: "CallExpression[callee.name='preparedQuery']", message: QUERY_IN_REPOSITORY },
  { selector: "CallExpression[callee.property.name='createQueryBuilder']", message: QUERY_IN_REPOSITORY },
];
const GLOBAL_MODULE = "An app's modules are not global: export what others need and import the module where it is used.";
const NO_GLOBAL_MODULES = [
  { selector: "Decorator[expression.callee.name='Global']", message: GLOBAL_MODULE },
  { selector: "Decorator[expression.callee.property.name='Global']", message: GLOBAL_MODULE },
  { selector: "Property[key.name='global']:not([value.value=false])", message: GLOBAL_MODULE },
  { selector: "Property[key.value='global']:not([value.value=false])", message: GLOBAL_MODULE },
  { selector: "AssignmentExpression > MemberExpression.left[property.name='global']", message: GLOBAL_MODULE },
];
const ERROR_IN_ERRORS_MODULE =
  "Errors are declared in their feature's *.errors.ts (a function that returns one); raise them by calling it.";
const ERRORS_IN_ERROR_MODULES = [
  { selector: "NewExpression[callee.name='DomainError']", message: ERROR_IN_ERRORS_MODULE },
  { selector: "CallExpression[callee.object.name='DomainError'][callee.property.name='of']", message: ERROR_IN_ERRORS_MODULE },
  { selector: 'NewExpression[callee.name=/Exception$/]', message: ERROR_IN_ERRORS_MODULE },
  { selector: 'NewExpression[callee.property.name=/Exception$/]', message: ERROR_IN_ERRORS_MODULE },
];

export default [
  { ignores: ['**/dist', '**/node_modules', '**/.data', '**/.nx', 'coverage', 'test-artifacts'] },
  ...nx.configs['flat/base'],
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain'] },
            { sourceTag: 'type:server-kit', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:authz-client', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-kit'] },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:server-kit', 'type:authz-client'],
            },
            // End-to-end tests and deploy checks drive the built apps over HTTP; they may use the libraries, never an app's source.
            {
              sourceTag: 'type:tooling',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:server-kit', 'type:authz-client'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No module of an app's own is global (issue 29): a module that injects something imports the module
    // that exports it, so its imports say what it stands on. The exceptions are the framework's, in
    // libs/server-kit (DatabaseModule.forRoot, the kit's settings in run-service.ts), as Nest's own
    // TypeOrmModule.forRoot and ConfigModule's host are; an app reads them through its config module.
    // Every error a service raises on purpose is declared in its feature's *.errors.ts (issue 29), so a
    // feature's refusals read in one file: no DomainError and no Nest *Exception is made anywhere else.
    files: ['apps/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_GLOBAL_MODULES, ...ERRORS_IN_ERROR_MODULES] },
  },
  {
    // Every query in a repository (or a migration): services orchestrate, repositories speak SQL.
    // (A later block replaces no-restricted-syntax for the files it matches, so it repeats the rule above.)
    files: ['apps/*/src/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/migrations/**', '**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_GLOBAL_MODULES, ...ERRORS_IN_ERROR_MODULES, ...QUERIES_IN_REPOSITORIES] },
  },
  {
    // A feature's *.errors.ts is where its errors are made (and it is no repository: no query there either).
    files: ['apps/*/src/**/*.errors.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_GLOBAL_MODULES, ...QUERIES_IN_REPOSITORIES] },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
