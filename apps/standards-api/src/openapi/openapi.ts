import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { eventWebhooks, STANDARDS_API_ERRORS, STANDARDS_EVENT_TYPES } from '@stdreg/contracts';
import { describeServedAnswers, describeValidationRules, listDomainErrorCodes, toOpenApi31 } from '@stdreg/server-kit';
import { API_VERSION } from '../registry-release/registry-release';

/** Builds the OpenAPI 3.1 description from the controllers and the contracts DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Standards registry and draft operations API')
    .setDescription(
      'Bilingual (en, zh-Hans) standards registry. Localized fields hold both locales; `?lang=` or ' +
        'Accept-Language adds a flattened `text` view and Content-Language. Reads are anonymous and cacheable ' +
        '(strong ETag, If-None-Match gives 304). Errors are RFC 9457 problem details.',
    )
    .setVersion(API_VERSION)
    .build();
  const document = toOpenApi31(SwaggerModule.createDocument(app, config)) as OpenAPIObject;
  describeValidationRules(document);
  describeServedAnswers(document);
  describeTextView(document);
  listDomainErrorCodes(document, STANDARDS_API_ERRORS);
  // Delivered by identity to the endpoints partners register there (`POST {identity}/v1/webhook-endpoints`).
  document.webhooks = eventWebhooks(STANDARDS_EVENT_TYPES) as OpenAPIObject['webhooks'];
  return document;
}

type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema };

/** A localized read (`lang`) adds the flattened `text` view to each record it answers (see `textView`). */
function describeTextView(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const record = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? schemas[schema.$ref.split('/').pop()!] : schema);
  for (const item of Object.values(document.paths))
    for (const operation of [item.get, item.post]) {
      if (!operation?.parameters?.some((parameter) => 'name' in parameter && parameter.name === 'lang')) continue;
      const answer = record(
        (operation.responses['200'] as { content?: Record<string, { schema?: Schema }> })?.content?.['application/json']?.schema,
      );
      const target = answer?.properties?.['items'] ? record(answer.properties['items'].items) : answer;
      if (target?.properties)
        target.properties['text'] = {
          type: 'object',
          additionalProperties: true,
          description:
            "With `?lang=` or Accept-Language: this record's localized fields, each as its text in that locale, in the same structure (`text.clauses[2]` belongs to `clauses[2]`)",
        } as Schema;
    }
}

/** Serves `/api/v2/openapi.json` and the interactive reference at `/api/v2/docs`. */
export function serveOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/v2/docs', app, document, {
    jsonDocumentUrl: 'api/v2/openapi.json',
    raw: ['json'],
    customSiteTitle: 'Standards registry API reference',
  });
}
