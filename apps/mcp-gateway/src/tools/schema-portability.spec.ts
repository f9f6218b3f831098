import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { portabilityProblems, portableSchema } from './schema-portability';
import { TOOLS } from './tool-catalogue';
import { publishedTool } from './tool-runner';

describe('the published tool schemas', () => {
  it('hold no construct a strict client warns about', () => {
    const problems = TOOLS.flatMap((tool) => {
      const published = publishedTool(tool);
      return [
        ...portabilityProblems(published.inputSchema).map((problem) => `${tool.name} input ${problem}`),
        ...portabilityProblems(published.outputSchema).map((problem) => `${tool.name} output ${problem}`),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('are JSON Schema 2020-12 that Ajv compiles in strict mode, object-typed at the root, under names MCP allows', () => {
    const problems = TOOLS.flatMap((tool) => {
      const published = publishedTool(tool);
      return Object.entries<Record<string, unknown>>({ input: published.inputSchema, output: published.outputSchema ?? {} }).flatMap(
        ([kind, schema]) => {
          const ajv = new Ajv2020({ strict: true, allErrors: true });
          (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
          const found = ajv.validateSchema(schema) ? [] : [`${tool.name} ${kind}: ${ajv.errorsText()}`];
          try {
            ajv.compile(schema);
          } catch (error) {
            found.push(`${tool.name} ${kind}: ${(error as Error).message}`);
          }
          return schema.type === 'object' ? found : [...found, `${tool.name} ${kind}: root is not an object`];
        },
      );
    });
    expect(problems).toEqual([]);
    for (const tool of TOOLS) expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
  });

  it('finds each non-portable construct it names', () => {
    expect(portabilityProblems({ type: 'object', properties: { a: { type: ['string', 'null'] } } })).toEqual([
      '/properties/a: type is an array (["string","null"])',
    ]);
    expect(portabilityProblems({ type: 'object', additionalProperties: {} })).toEqual([
      '/: additionalProperties allows values of any type',
    ]);
    expect(portabilityProblems({ type: 'object', additionalProperties: true, properties: {} })).toEqual([
      '/: additionalProperties allows values of any type',
    ]);
    expect(portabilityProblems({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } })).toEqual([
      '/: propertyNames',
    ]);
    const zodSchema = z.toJSONSchema(
      z.object({ a: z.string().nullable(), b: z.record(z.string(), z.number()), c: z.record(z.string(), z.unknown()) }),
    );
    expect(portabilityProblems(zodSchema).length).toBeGreaterThan(0);
    expect(portabilityProblems(portableSchema(zodSchema))).toEqual([]);
  });

  it('writes a type array as anyOf, keeping the other keywords on each alternative', () => {
    expect(portableSchema({ type: ['string', 'null'], maxLength: 3 })).toEqual({
      anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }],
    });
    expect(portableSchema({ type: ['integer'] })).toEqual({ type: 'integer' });
    expect(portableSchema({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} })).toEqual({ type: 'object' });
  });
});
