const sharedRedis = Boolean(process.env.REDIS_URL);

module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'mcp-gateway',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
  // Replica tests need a Redis that two gateway instances share; CI's main run has one.
  testPathIgnorePatterns: sharedRedis ? ['/node_modules/'] : ['/node_modules/', '<rootDir>/test/shared-infrastructure/'],
};
