module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'identity',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
};
