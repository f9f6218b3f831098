// One low-level MCP Server per HTTP request (stateless), with the gateway's handlers and the spec's error codes.
import { Injectable } from '@nestjs/common';
import { JsonLogger } from '@stdreg/server-kit';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { parseResourceUri } from '../resources/resource-catalogue';
import { ResourceDirectory, type ResourcePage } from '../resources/resource-directory';
import { ResourceReader, type ResourceRead } from '../resources/resource-reader';
import { ToolRunner } from '../tools/tool-runner';
import type { McpCaller } from '../callers/caller';
import { JsonRpcErrorCode, PROTOCOL_VERSION, refusalMeta } from './protocol';

const SERVER_INFO = { name: 'stdreg-mcp-gateway', title: 'Standards registry tool gateway', version: '1.0.0' };
const INSTRUCTIONS =
  'Read the standards registry as stdreg:// resources; call tools to validate and draft. Tools need Authorization: Bearer <API key>, ' +
  'or an agent token from identity for a person who consented (an agent with no key is answered 401 with where to sign in). ' +
  'Agents draft only: activation, rule versions, settlement posting, equity and payments stay with authorised humans.';
const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false }, completions: {}, logging: {} };
/** Resource denials get their own code so an agent can tell them from absence. */
const ACCESS_DENIED = -32003;
/**
 * Without one, every Server (one per request) builds its own Ajv with formats, about 0.1–0.2 ms of CPU. The
 * server side only uses it to check elicitation answers, which the gateway never asks for.
 */
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

@Injectable()
export class McpServerFactory {
  constructor(
    private readonly tools: ToolRunner,
    private readonly directory: ResourceDirectory,
    private readonly reader: ResourceReader,
    private readonly logger: JsonLogger,
  ) {}

  create(caller: McpCaller): Server {
    const server = new Server(SERVER_INFO, {
      capabilities: CAPABILITIES,
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: JSON_SCHEMA_VALIDATOR,
    });
    // The SDK echoes any version it knows; this gateway speaks exactly one.
    server.setRequestHandler(
      InitializeRequestSchema,
      this.guarded('initialize', () => ({
        protocolVersion: PROTOCOL_VERSION,
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS,
      })),
    );
    server.setRequestHandler(
      ListToolsRequestSchema,
      this.guarded('tools/list', (request) => {
        refuseCursor(request.params?.cursor);
        return { tools: this.tools.list(caller) };
      }),
    );
    server.setRequestHandler(
      CallToolRequestSchema,
      this.guarded('tools/call', (request) => this.tools.call(request.params.name, request.params.arguments, caller)),
    );
    server.setRequestHandler(
      ListResourceTemplatesRequestSchema,
      this.guarded('resources/templates/list', (request) => {
        refuseCursor(request.params?.cursor);
        return { resourceTemplates: this.directory.templates() };
      }),
    );
    server.setRequestHandler(
      ListResourcesRequestSchema,
      this.guarded('resources/list', async (request) => {
        const page = await this.directory.list(request.params?.cursor);
        if (!page.ok) throw listError(page);
        return { resources: page.resources, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      }),
    );
    server.setRequestHandler(
      ReadResourceRequestSchema,
      this.guarded('resources/read', async (request) => {
        const { uri } = request.params;
        const parsed = parseResourceUri(uri);
        if (!parsed)
          throw new McpError(JsonRpcErrorCode.ResourceNotFound, 'Resource not found', { uri, ...refusalMeta('resource_not_found') });
        const read = await this.reader.read(parsed, caller);
        if (!read.ok) throw readError(read, uri);
        return { contents: [{ uri, mimeType: 'application/json', text: read.json }] };
      }),
    );
    server.setRequestHandler(
      CompleteRequestSchema,
      this.guarded('completion/complete', async (request) => {
        const { ref, argument } = request.params;
        if (ref.type !== 'ref/resource') return { completion: { values: [], total: 0, hasMore: false } };
        return { completion: await this.directory.complete(ref.uri, argument.name, argument.value) };
      }),
    );
    return server;
  }

  /**
   * A handler whose own failures (not its refusals, which are McpErrors) are logged and answered as the gateway's
   * fault: the SDK would send the error's message to the agent, naming the gateway's code, and log nothing.
   */
  private guarded<A extends unknown[], R>(method: string, handler: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
    return async (...args) => {
      try {
        return await handler(...args);
      } catch (error) {
        if (error instanceof McpError) throw error;
        this.logger.event(
          'error',
          'an MCP request failed unexpectedly',
          { method, error: error instanceof Error ? error.message : String(error) },
          'McpServer',
        );
        throw new McpError(
          ErrorCode.InternalError,
          'The gateway failed unexpectedly; nothing was changed. Retry, or report it if it persists.',
        );
      }
    };
  }
}

/** tools/list and resources/templates/list answer in one page and give no cursor: any cursor is one they did not give (-32602). */
function refuseCursor(cursor: string | undefined): void {
  if (cursor !== undefined) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor: this list has a single page and gives no cursor.');
}

/** A list refused: a cursor it did not give is the client's mistake (-32602); the registry away is the gateway's (-32603, as a read). */
function listError(page: Extract<ResourcePage, { ok: false }>): McpError {
  return page.reason === 'invalid_cursor'
    ? new McpError(ErrorCode.InvalidParams, page.message)
    : new McpError(ErrorCode.InternalError, page.message, refusalMeta('upstream_failed'));
}

/** A refused read as its JSON-RPC error: the code by how it ended, and why (the refusal's code) in `data` beside the URI. */
function readError(read: Extract<ResourceRead, { ok: false }>, uri: string): McpError {
  const data = { uri, ...refusalMeta(read.code) };
  switch (read.reason) {
    case 'not_found':
      return new McpError(JsonRpcErrorCode.ResourceNotFound, 'Resource not found', data);
    case 'denied':
      return new McpError(ACCESS_DENIED, read.message, data);
    case 'unavailable':
      return new McpError(ErrorCode.InternalError, read.message, data);
  }
}
