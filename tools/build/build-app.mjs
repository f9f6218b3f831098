// Builds one app into dist/apps/<app>: an ESM bundle of its own code and the workspace
// libraries, with every npm package left external and listed in a generated package.json,
// so the folder is a deployable artifact (`npm install --omit=dev` inside it, then `node main.js`).
// esbuild alone cannot emit decorator metadata, which Nest's DI and the DTO decorators need,
// so TypeScript files are transpiled by the TypeScript compiler inside an esbuild plugin.
import { build } from 'esbuild';
import ts from 'typescript';
import { readFile, writeFile, mkdir, rm, cp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const appName = process.argv[2];
if (!appName) {
  console.error('usage: build-app.mjs <app>');
  process.exit(2);
}
const appDir = path.join(root, 'apps', appName);
const outDir = path.join(root, 'dist', 'apps', appName);
const appConfig = JSON.parse(await readFile(path.join(appDir, 'build.json'), 'utf8'));

const tsconfig = ts.parseJsonConfigFileContent(
  ts.readConfigFile(path.join(root, 'tsconfig.base.json'), ts.sys.readFile).config,
  ts.sys,
  root,
);

const decoratorMetadataPlugin = {
  name: 'typescript-decorator-metadata',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const { outputText } = ts.transpileModule(source, {
        fileName: args.path,
        compilerOptions: { ...tsconfig.options, sourceMap: false, inlineSourceMap: true, inlineSources: true },
      });
      return { contents: outputText, loader: 'js' };
    });
  },
};

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });

const result = await build({
  entryPoints: Object.fromEntries(
    Object.entries(appConfig.entryPoints).map(([name, file]) => [name, path.join(appDir, file)]),
  ),
  outdir: outDir,
  bundle: true,
  keepNames: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  sourcemap: 'linked',
  metafile: true,
  tsconfig: path.join(root, 'tsconfig.base.json'),
  plugins: [decoratorMetadataPlugin],
  logLevel: 'warning',
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
const dependencies = {};
for (const name of [...importedPackages, ...(appConfig.extraDependencies ?? [])].sort()) {
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
