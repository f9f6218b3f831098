module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'standards-api',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
};
