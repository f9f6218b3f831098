import type { ErrorCode } from '@stdreg/contracts';

interface DocumentWithSchemas {
  components?: { schemas?: Record<string, unknown> };
}

/** Lists the domain codes a service answers on the problem body's `domainCode`, each with its category. */
export function listDomainErrorCodes(document: DocumentWithSchemas, codes: Record<string, ErrorCode>): void {
  const schema = document.components?.schemas?.['ProblemDetailsDto'] as
    { properties?: Record<string, Record<string, unknown>> } | undefined;
  const property = schema?.properties?.['domainCode'];
  if (!property) return;
  property['enum'] = Object.keys(codes);
  property['example'] = Object.keys(codes)[0];
  property['description'] = `${String(property['description'] ?? '')}. Categories: ${Object.entries(codes)
    .map(([code, category]) => `${code} → ${category}`)
    .join(', ')}`;
}
