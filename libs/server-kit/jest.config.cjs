module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'server-kit',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
};
