// `npm test`: every project's unit, medium and end-to-end tests.
module.exports = {
  projects: ['<rootDir>/apps/*/jest.config.cjs', '<rootDir>/libs/*/jest.config.cjs', '<rootDir>/deploy/jest.config.cjs'],
};
