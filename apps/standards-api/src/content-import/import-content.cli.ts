// `import-content [--check] [packDir]`: validates a content pack and imports it into the registry
// database (DATABASE_URL, or the embedded one under DATA_DIR). Exit 0 imported or unchanged,
// 1 refused (every issue printed, nothing changed), 2 bad usage or configuration.
import 'reflect-metadata';
import path from 'node:path';
import { formatIssues, loadPack, contentDigest } from '@stdreg/registry-content';
import { ConfigValidationError, loadConfig } from '@stdreg/server-kit';
import { openDatabase } from '@stdreg/server-kit/database';
import { StandardsApiConfig } from '../config/standards-api.config';
import { STANDARDS_API_MIGRATIONS } from '../migrations';
import { REGISTRY_ENTITIES } from '../registry-storage/registry.entity';
import { RegistryRepository } from '../registry-storage/registry.repository';
import { ContentImportService } from './content-import.service';

const args = process.argv.slice(2);
const checkOnly = args.includes('--check');
const positional = args.filter((a) => !a.startsWith('--'));
if (positional.length > 1 || args.some((a) => a.startsWith('--') && a !== '--check')) {
  process.stderr.write('usage: import-content [--check] [packDir]\n');
  process.exit(2);
}

let config: StandardsApiConfig;
try {
  config = loadConfig(StandardsApiConfig);
} catch (error) {
  if (!(error instanceof ConfigValidationError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
const directory = path.resolve(positional[0] ?? config.contentPackDirectory);

if (checkOnly) {
  const validation = await loadPack(directory);
  if (!validation.ok) {
    process.stderr.write(`refused ${directory}: ${validation.issues.length} issue(s)\n${formatIssues(validation.issues)}\n`);
    process.exit(1);
  }
  process.stdout.write(`valid: ${directory} (${contentDigest(validation.pack)})\n`);
  process.exit(0);
}

const database = await openDatabase({
  service: 'standards-api',
  ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
  dataDir: config.DATA_DIR,
  statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  maintenanceStatementTimeoutMs: config.DATABASE_MAINTENANCE_STATEMENT_TIMEOUT_MS,
  entities: REGISTRY_ENTITIES,
  migrations: STANDARDS_API_MIGRATIONS,
});
try {
  const outcome = await new ContentImportService(new RegistryRepository(database.dataSource)).importPack(directory);
  switch (outcome.status) {
    case 'refused':
      process.stderr.write(`refused ${directory}: ${outcome.issues.length} issue(s), nothing changed\n${formatIssues(outcome.issues)}\n`);
      process.exitCode = 1;
      break;
    case 'unchanged':
      process.stdout.write(`unchanged: pack ${outcome.packVersion} (${outcome.digest}) is already current\n`);
      break;
    case 'imported':
      process.stdout.write(`imported pack ${outcome.packVersion} (${outcome.digest}) at ${outcome.importedAt.toISOString()}\n`);
      process.stdout.write(
        outcome.searchIndex.stored
          ? `stored its search index (${outcome.searchIndex.milliseconds} ms)\n`
          : `did not store its search index (the first replica to load it will): ${outcome.searchIndex.problem}\n`,
      );
      break;
  }
} finally {
  await database.close();
}
