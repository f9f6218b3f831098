const sharedInfrastructure = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'identity',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
  // Replica tests need a PostgreSQL server and Redis that two app instances share; CI's main run has both.
  testPathIgnorePatterns: sharedInfrastructure ? ['/node_modules/'] : ['/node_modules/', '<rootDir>/test/shared-infrastructure/'],
};
