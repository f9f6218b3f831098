module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'split-engine',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
};
