module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'registry-content',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
};
