// What a tool is: schemas (zod, published as JSON Schema 2020-12), annotations, the collaborators it uses, a handler and a text rendering.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { AgentScope, ToolRefusalCode } from '@stdreg/contracts';
import type { z } from 'zod';
import type { AuthorizedCaller } from '../callers/gateway-authorization';
import type { RegistryCache } from '../upstream/registry-cache';
import type { StandardsApiClient } from '../upstream/standards-api.client';

/** Everything a tool could be handed; each tool names the ones it uses (`uses`) and receives only those. */
export interface ToolCollaborators {
  /** The caller as identity's tool:call allow of this very call described them, with the organization the call acts in. */
  caller: AuthorizedCaller;
  registry: RegistryCache;
  standardsApi: StandardsApiClient;
}

/** A tool's own failure: said to the agent as a result with isError, never as a protocol error. */
export type ToolOutcome<O> = { ok: true; output: O } | { ok: false; message: string; code: ToolRefusalCode };

/** A tool as its file writes it: the handler's input, output and collaborators are typed by the schemas and by `uses`. */
export interface ToolDefinition<I extends z.ZodType, O extends z.ZodType<Record<string, unknown>>, D extends Partial<ToolCollaborators>> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** What an agent's token must hold to call it: `registry:read` for tools that read or compute, `projects:draft` for drafting. */
  scope: AgentScope;
  /** Picks the collaborators the handler uses; the handler is handed these and nothing else. */
  uses(collaborators: ToolCollaborators): D;
  run(input: z.output<I>, collaborators: D): Promise<ToolOutcome<z.output<O>>>;
  render(output: z.output<O>): string;
}

/** What one call of a tool came to. */
export type ToolInvocation =
  | { kind: 'invalid_arguments'; error: z.ZodError }
  | { kind: 'failed'; message: string; code: ToolRefusalCode }
  | { kind: 'done'; output: Record<string, unknown>; text: string };

/** A tool as the catalogue and the runner hold it: its own types stay inside, so tools of different types share one list. */
export interface GatewayTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  annotations: ToolAnnotations;
  scope: AgentScope;
  /** Parses the arguments with the input schema, runs the handler with the collaborators it uses, renders the output. */
  invoke(args: unknown, collaborators: ToolCollaborators): Promise<ToolInvocation>;
}

export function defineTool<I extends z.ZodType, O extends z.ZodType<Record<string, unknown>>, D extends Partial<ToolCollaborators>>(
  tool: ToolDefinition<I, O, D>,
): GatewayTool {
  const { name, title, description, input, output, annotations, scope } = tool;
  return {
    name,
    title,
    description,
    input,
    output,
    annotations,
    scope,
    async invoke(args, collaborators) {
      const parsed = input.safeParse(args);
      if (!parsed.success) return { kind: 'invalid_arguments', error: parsed.error };
      const outcome = await tool.run(parsed.data, tool.uses(collaborators));
      if (!outcome.ok) return { kind: 'failed', message: outcome.message, code: outcome.code };
      return { kind: 'done', output: outcome.output, text: tool.render(outcome.output) };
    },
  };
}

/** For tools that use no collaborator: they compute from their input alone. */
export const NOTHING = (): Record<never, never> => ({});

/** Pure tools: read nothing but the registry, change nothing, same answer for the same input and release. */
export const PURE_READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
