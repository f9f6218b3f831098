// The Kubernetes manifests under deploy/k8s, parsed with the yaml package.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './config-variables';

export const K8S_DIR = path.join(ROOT, 'deploy/k8s');

export interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own shape; tests read the fields they check
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export function manifestFiles(dir = K8S_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? manifestFiles(path.join(dir, entry.name)) : entry.name.endsWith('.yaml') ? [path.join(dir, entry.name)] : [],
  );
}

/** Every document of every manifest file; a YAML error fails here with the file named. */
export function loadManifests(): Manifest[] {
  return manifestFiles()
    .filter((file) => path.basename(file) !== 'kustomization.yaml')
    .flatMap((file) =>
      parseAllDocuments(readFileSync(file, 'utf8')).map((document) => {
        if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
        return { ...(document.toJS() as Omit<Manifest, 'file'>), file: path.relative(K8S_DIR, file) };
      }),
    );
}

export function find(manifests: Manifest[], kind: string, name: string): Manifest | undefined {
  return manifests.find((m) => m.kind === kind && m.metadata.name === name);
}
