// The esbuild step of the builds: an ESM bundle for Node 24 of the given entry points with the
// workspace libraries inlined and every npm package left external (so node_modules must be reachable
// from the output, or the output must be installed as an artifact; see build-app.mjs).
// esbuild alone cannot emit decorator metadata, which Nest's DI and the DTO decorators need,
// so TypeScript files are transpiled by the TypeScript compiler inside an esbuild plugin.
import { build } from 'esbuild';
import ts from 'typescript';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const TSCONFIG_FILE = path.join(ROOT, 'tsconfig.base.json');

const tsconfig = ts.parseJsonConfigFileContent(ts.readConfigFile(TSCONFIG_FILE, ts.sys.readFile).config, ts.sys, ROOT);

export const decoratorMetadataPlugin = {
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

/**
 * Bundles `entryPoints` (name → absolute path of the entry file) into `outdir` as `<name>.js` with a
 * linked source map; resolves with esbuild's result, whose metafile lists the external imports.
 */
export function bundle({ entryPoints, outdir }) {
  return build({
    entryPoints,
    outdir,
    bundle: true,
    keepNames: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    tsconfig: TSCONFIG_FILE,
    plugins: [decoratorMetadataPlugin],
    logLevel: 'warning',
  });
}
