// Shared Jest settings: TypeScript through ts-jest in ESM mode (NestJS 12 and PGlite are ESM-only),
// workspace libraries resolved from source. Type checking is a separate step (`npm run typecheck`).
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
module.exports = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: path.join(root, 'tsconfig.base.json') }],
  },
  moduleNameMapper: {
    '^@stdreg/server-kit/(database|testing|rate-limit)$': path.join(root, 'libs/server-kit/src/$1/index.ts'),
    '^@stdreg/([a-z-]+)$': path.join(root, 'libs/$1/src/index.ts'),
  },
};
