// Builds one app into dist/apps/<app>: an ESM bundle of its own code and the workspace
// libraries, with every npm package left external and listed in a generated package.json,
// so the folder is a deployable artifact (`npm install --omit=dev` inside it, then `node main.js`).
// The bundling itself (esbuild with the TypeScript decorator-metadata plugin) is bundle.mjs.
import { readFile, writeFile, mkdir, rm, cp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bundle, ROOT as root } from './bundle.mjs';

const appName = process.argv[2];
if (!appName) {
  console.error('usage: build-app.mjs <app>');
  process.exit(2);
}
const appDir = path.join(root, 'apps', appName);
const outDir = path.join(root, 'dist', 'apps', appName);
const appConfig = JSON.parse(await readFile(path.join(appDir, 'build.json'), 'utf8'));

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });

const result = await bundle({
  entryPoints: Object.fromEntries(Object.entries(appConfig.entryPoints).map(([name, file]) => [name, path.join(appDir, file)])),
  outdir: outDir,
});

const rootPackage = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const importedPackages = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const imported of output.imports) {
    if (!imported.external || imported.path.startsWith('node:')) continue;
    const parts = imported.path.split('/');
    importedPackages.add(imported.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
}
// Packages that others load by name at run time, which the bundle cannot see: Nest core loads the HTTP
// platform, TypeORM the PostgreSQL driver. Without them the artifact installed alone does not start.
const LOADED_AT_RUN_TIME = { '@nestjs/core': ['@nestjs/platform-express'], typeorm: ['pg'] };
for (const [loader, loaded] of Object.entries(LOADED_AT_RUN_TIME)) {
  if (importedPackages.has(loader)) for (const name of loaded) importedPackages.add(name);
}
const dependencies = {};
for (const name of [...new Set([...importedPackages, ...(appConfig.extraDependencies ?? [])])].sort()) {
  const version = rootPackage.dependencies?.[name];
  if (!version) {
    console.error(`${appName} imports "${name}", which is not a production dependency in package.json`);
    process.exit(1);
  }
  dependencies[name] = version;
}
await writeFile(
  path.join(outDir, 'package.json'),
  JSON.stringify(
    {
      name: `@stdreg/${appName}`,
      version: rootPackage.version,
      private: true,
      type: 'module',
      engines: rootPackage.engines,
      scripts: { start: 'node main.js' },
      dependencies,
    },
    null,
    2,
  ) + '\n',
);
for (const asset of appConfig.assets ?? []) {
  const from = path.join(root, asset.from);
  if (existsSync(from)) await cp(from, path.join(outDir, asset.to), { recursive: true });
}
console.log(`built ${path.relative(root, outDir)} (${Object.keys(dependencies).length} production dependencies)`);
