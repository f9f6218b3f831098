// The upgrade check (tools/upgrade-check/upgrade-check.spec.ts): outside the e2e suite, as it needs the release
// before built in another checkout (UPGRADE_FROM).
module.exports = {
  ...require('../jest/preset.cjs'),
  displayName: 'upgrade-check',
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.spec.ts'],
};
