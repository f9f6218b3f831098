// tools/list and tools/call: identity asked for every call (fail closed; a read-only tool's allow may be reused briefly), arguments validated, results shaped.
import { Injectable } from '@nestjs/common';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_REFUSAL_META, type ToolRefusal, type ToolRefusalCode } from '@stdreg/contracts';
import { JsonLogger } from '@stdreg/server-kit';
import { z } from 'zod';
import { recordAgentAction } from '../agent-actions/agent-action';
import { GatewayAuthorization, type AuthorizedCaller } from '../callers/gateway-authorization';
import type { McpCaller } from '../callers/caller';
import { RegistryCache } from '../upstream/registry-cache';
import { StandardsApiClient } from '../upstream/standards-api.client';
import { portableSchema } from './schema-portability';
import type { GatewayTool } from './tool-definition';
import { TOOLS } from './tool-catalogue';

type JsonSchemaObject = Tool['inputSchema'];

/** A tool as tools/list publishes it, its schemas in the portable subset (schema-portability). */
export function publishedTool(tool: GatewayTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: portableSchema(z.toJSONSchema(tool.input, { io: 'input' })) as JsonSchemaObject,
    outputSchema: portableSchema(z.toJSONSchema(tool.output, { io: 'output' })) as JsonSchemaObject,
    annotations: { title: tool.title, ...tool.annotations },
  };
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}

/** A refused call: the words for the agent, and the code for its program in `_meta` (TOOL_REFUSAL_META). */
function refusal(message: string, code: ToolRefusalCode): CallToolResult {
  const meta: ToolRefusal = { code };
  return { isError: true, content: [{ type: 'text', text: message }], _meta: { [TOOL_REFUSAL_META]: meta } };
}

@Injectable()
export class ToolRunner {
  private readonly byName = new Map(TOOLS.map((tool) => [tool.name, tool]));
  private readonly catalogue: Tool[] = TOOLS.map(publishedTool);

  constructor(
    private readonly authorization: GatewayAuthorization,
    private readonly registry: RegistryCache,
    private readonly standardsApi: StandardsApiClient,
    private readonly logger: JsonLogger,
  ) {}

  /** Every tool; to an agent's token, only the tools its scopes let it call. */
  list(caller: McpCaller): Tool[] {
    const scopes = caller.admitted?.kind === 'agent' ? caller.admitted.scopes : undefined;
    if (!scopes) return this.catalogue;
    return this.catalogue.filter((_, index) => scopes.includes(TOOLS[index]!.scope));
  }

  async call(name: string, args: Record<string, unknown> | undefined, caller: McpCaller): Promise<CallToolResult> {
    const tool = this.byName.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. tools/list names the tools.`);
    const allowed = await this.authorization.toolCall(caller, { scope: tool.scope, readOnly: tool.annotations.readOnlyHint === true });
    if (!allowed.ok) return refusal(`Refused: ${allowed.message}`, allowed.code);
    const { outcome, result } = await this.invoke(tool, args, allowed.caller);
    const { organization, subject } = allowed.caller;
    recordAgentAction(this.logger, subject, {
      target: { tool: name },
      organizationId: organization.ok ? organization.organizationId : null,
      outcome,
    });
    return result;
  }

  private async invoke(
    tool: GatewayTool,
    args: Record<string, unknown> | undefined,
    caller: AuthorizedCaller,
  ): Promise<{ outcome: 'done' | 'invalid_arguments' | 'failed' | 'error'; result: CallToolResult }> {
    try {
      const invocation = await tool.invoke(args ?? {}, { caller, registry: this.registry, standardsApi: this.standardsApi });
      switch (invocation.kind) {
        case 'invalid_arguments':
          return {
            outcome: invocation.kind,
            result: refusal(`Invalid arguments for ${tool.name}: ${describeIssues(invocation.error)}.`, 'invalid_arguments'),
          };
        case 'failed':
          return { outcome: invocation.kind, result: refusal(invocation.message, invocation.code) };
        case 'done':
          return {
            outcome: invocation.kind,
            result: { content: [{ type: 'text', text: invocation.text }], structuredContent: invocation.output },
          };
      }
    } catch (error) {
      this.logger.event(
        'error',
        'tool failed',
        { tool: tool.name, error: error instanceof Error ? error.message : String(error) },
        'ToolRunner',
      );
      return {
        outcome: 'error',
        result: refusal(`${tool.name} failed unexpectedly; nothing was changed. Retry, or report it if it persists.`, 'tool_failed'),
      };
    }
  }
}
