// What a tool is: schemas (zod, published as JSON Schema 2020-12), annotations, a handler and a text rendering.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { GatewayAuthorization } from '../authorization/gateway-authorization';
import type { McpCaller } from '../caller/caller';
import type { RegistryCache } from '../upstream/registry-cache';
import type { StandardsApiClient } from '../upstream/standards-api.client';

export interface ToolContext {
  caller: McpCaller;
  registry: RegistryCache;
  standardsApi: StandardsApiClient;
  authorization: GatewayAuthorization;
}

/** A tool's own failure: said to the agent as a result with isError, never as a protocol error. */
export type ToolOutcome<O> = { ok: true; output: O } | { ok: false; message: string };

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(input: z.output<I>, context: ToolContext): Promise<ToolOutcome<z.output<O>>>;
  render(output: z.output<O>): string;
}

/** Keeps the handler's input and output types tied to the schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(tool: ToolDefinition<I, O>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** Pure tools: read nothing but the registry, change nothing, same answer for the same input and release. */
export const PURE_READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
