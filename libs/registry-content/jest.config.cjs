module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'registry-content',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
};
