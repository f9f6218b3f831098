// Import cycles of an app, checked in npm run lint, at two scales. Folder scope: a cycle counts when
// feature folder A (a folder directly below apps/<app>/src) imports folder B and B imports A, through
// any files, which is what makes features hard to change on their own. File scope: two files of one
// folder that import each other (a decorator and the guard it applies) cannot be read or loaded alone.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-feature-folder-cycles',
      severity: 'error',
      comment: 'Feature folders of an app must not import each other in a circle; move what both need below both.',
      scope: 'folder',
      from: { path: '^apps/[^/]+/src/[^/]+$' },
      to: { path: '^apps/[^/]+/src/[^/]+$', circular: true },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      comment: 'Files of an app must not import each other in a circle; move what both need into a third file both import.',
      from: { path: '^apps/[^/]+/src/' },
      to: { path: '^apps/[^/]+/src/', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', 'dist', '\\.spec\\.ts$', '/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
