import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from '@stdreg/server-kit';

/** Serves `/v1/openapi.json` and the reference page at `/v1/docs`. */
export function serveOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Identity API')
    .setDescription(
      'Partner app registration, user mirror sync, API keys (App and Platform class, `Authorization: Bearer <key>`), ' +
        'operator administration, the audit log, and the authorization decision for the platform services. ' +
        'Every keyed response carries X-RateLimit-Limit and X-RateLimit-Remaining; 429 adds Retry-After. ' +
        'Errors are RFC 9457 problem details.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key' }, 'api-key')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A service credential (decision endpoint)' }, 'service')
    .build();
  const document = toOpenApi31(SwaggerModule.createDocument(app, config)) as OpenAPIObject;
  SwaggerModule.setup('v1/docs', app, document, { jsonDocumentUrl: 'v1/openapi.json', raw: ['json'], customSiteTitle: 'Identity API reference' });
}
