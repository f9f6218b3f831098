import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

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
    // Every query in a repository (or a migration): services orchestrate, repositories speak SQL.
    files: ['apps/*/src/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/migrations/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='query']", message: 'Queries belong in a *.repository.ts (or a migration).' },
        { selector: "CallExpression[callee.name='preparedQuery']", message: 'Queries belong in a *.repository.ts (or a migration).' },
        {
          selector: "CallExpression[callee.property.name='createQueryBuilder']",
          message: 'Queries belong in a *.repository.ts (or a migration).',
        },
      ],
    },
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
