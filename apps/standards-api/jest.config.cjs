// Specs that need a PostgreSQL server (several connections at once) run only when the test run has one.
const postgresServer = Boolean(process.env.DATABASE_URL);

module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'standards-api',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
  // Specs in shared-infrastructure/ also need Redis (replicas of identity share what they hear through it).
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(postgresServer ? [] : ['<rootDir>/test/postgres-server/']),
    ...(postgresServer && process.env.REDIS_URL ? [] : ['<rootDir>/test/shared-infrastructure/']),
  ],
};
