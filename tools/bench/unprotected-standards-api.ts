// Bench-only entry point: standards-api without the identity hop, the baseline of
// protected-read.bench.mjs. It assembles the app as apps/standards-api/src/main.ts does (runService →
// createServiceApp with the STANDARDS_API definition: same config, logger, root module, HTTP kit,
// global prefix, OpenAPI, port and host), except that the AuthorizationClient provider is replaced
// by an object that allows every question at once without asking identity. The guard, the
// Authorize metadata and everything after them run unchanged. An API key acts as an app key; any other
// bearer credential (an access token's place) acts as a signed-in person, so that the formal writes a
// person alone may make (activation, rule versions, postings) can be measured too (scale.bench.mjs).
// Never part of an app artifact: protected-read.bench.mjs bundles it (tools/build/bundle.mjs) into
// dist/bench/unprotected-standards-api/, to be run from the repository so node_modules resolve.
import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { AuthorizationClient, type AuthorizationAnswer, type AuthorizationQuestion } from '@stdreg/authz-client';
import { applyServiceKit, ConfigValidationError, JsonLogger, loadConfig, serviceAppOptions, serviceRootModule } from '@stdreg/server-kit';
import type { StandardsApiConfig } from '../../apps/standards-api/src/config/standards-api.config';
import { STANDARDS_API } from '../../apps/standards-api/src/standards-api.service';

const ALLOW_KEY: AuthorizationAnswer = { decision: 'allow', reason: 'bench', subject: { kind: 'app_key', id: 'bench' } };
const ALLOW_PERSON: AuthorizationAnswer = { decision: 'allow', reason: 'bench', subject: { kind: 'human', id: 'bench' } };

/** Stands in for AuthorizationClient: every question is allowed at once; nothing to close. */
const allowEverything: Pick<AuthorizationClient, 'ask' | 'close'> = {
  ask: (question: AuthorizationQuestion) => Promise.resolve(question.credential.kind === 'api_key' ? ALLOW_KEY : ALLOW_PERSON),
  close: () => Promise.resolve(),
};

const definition = STANDARDS_API;
let config: StandardsApiConfig;
try {
  config = loadConfig(definition.configClass);
} catch (error) {
  if (error instanceof ConfigValidationError) {
    process.stderr.write(`${definition.service} (unprotected): ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
const logger = new JsonLogger(definition.service, config.LOG_LEVEL);

// AppModule.register(config) with the kit's settings beside it, as createServiceApp builds it.
const moduleRef = await Test.createTestingModule({ imports: [serviceRootModule(definition, config, logger)] })
  .overrideProvider(AuthorizationClient)
  .useValue(allowEverything)
  .compile();
const app = moduleRef.createNestApplication<NestExpressApplication>(new ExpressAdapter(), serviceAppOptions(logger));
await applyServiceKit(app, definition, config, logger);

const port = definition.port(config);
const host = definition.host(config);
await app.listen(port, host);
logger.event('info', `${definition.service} (unprotected, bench only) listening`, { url: `http://${host}:${port}` }, 'Bootstrap');
