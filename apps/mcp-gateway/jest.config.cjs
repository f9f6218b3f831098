module.exports = {
  ...require('../../tools/jest/preset.cjs'),
  displayName: 'mcp-gateway',
  rootDir: __dirname,
  testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
};
