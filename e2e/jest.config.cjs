const sharedInfrastructure = Boolean(process.env.DATABASE_URL);

module.exports = {
  ...require('../tools/jest/preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  // The lifecycle simulation runs against a PostgreSQL server (it ends the services' connections from
  // the server side); CI's main run has one.
  testPathIgnorePatterns: sharedInfrastructure ? ['/node_modules/'] : ['/node_modules/', '<rootDir>/test/shared-infrastructure/'],
};
