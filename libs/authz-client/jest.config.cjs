module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'authz-client',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
};
