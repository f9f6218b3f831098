// Import cycles between feature folders of an app (a folder directly below apps/<app>/src), checked in
// npm run lint. Folder scope: a cycle counts when folder A imports folder B and B imports A, through
// any files, which is what makes features hard to change on their own.
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', 'dist', '\\.spec\\.ts$', '/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
