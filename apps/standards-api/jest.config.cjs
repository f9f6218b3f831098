// Specs that need a PostgreSQL server (several connections at once) run only when the test run has one.
const postgresServer = Boolean(process.env.DATABASE_URL);

module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'standards-api',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
  testPathIgnorePatterns: postgresServer ? ['/node_modules/'] : ['/node_modules/', '<rootDir>/test/postgres-server/'],
};
