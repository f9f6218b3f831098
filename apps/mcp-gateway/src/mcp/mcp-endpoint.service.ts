// Serves one POST /mcp: request checks, tool-call rate limits, then a fresh server and transport (stateless).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AGENT_SCOPES, MAX_CREDENTIAL_LENGTH } from '@stdreg/contracts';
import { GatewayAuthorization } from '../callers/gateway-authorization';
import { McpGatewayConfig } from '../config/mcp-gateway.config';
import { ProtectedResourceService } from '../protected-resource/protected-resource.service';
import { ToolCallLimiter } from '../rate-limit/tool-call-limiter';
import { callerOf } from '../callers/caller';
import { McpServerFactory } from './mcp-server.factory';
import { JsonRpcErrorCode, jsonRpcError } from './protocol';
import { checkOrigin, checkProtocolVersion, type OriginPolicy } from './request-checks';
import { requestOperations } from './request-operations';
import { requestShapeAnswer } from './request-shape';

function countToolCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter(
    (message) => typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'tools/call',
  ).length;
}

@Injectable()
export class McpEndpoint {
  private readonly originPolicy: OriginPolicy;

  constructor(
    config: McpGatewayConfig,
    private readonly servers: McpServerFactory,
    private readonly limiter: ToolCallLimiter,
    private readonly authorization: GatewayAuthorization,
    private readonly protectedResource: ProtectedResourceService,
  ) {
    this.originPolicy = {
      allowedHosts: config.MCP_ALLOWED_HOSTS.map((host) => host.toLowerCase()),
      allowedOrigins: config.MCP_ALLOWED_ORIGINS,
    };
  }

  async handle(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> {
    const check = [checkOrigin(request.headers, this.originPolicy), checkProtocolVersion(request.headers)].find((result) => !result.ok);
    if (check && !check.ok) return send(response, check.status, jsonRpcError(JsonRpcErrorCode.Refused, check.message));
    const caller = callerOf(request);
    if (caller.credential && caller.credential.value.length > MAX_CREDENTIAL_LENGTH) {
      response.setHeader('WWW-Authenticate', this.protectedResource.challenge({ error: 'invalid_token', scopes: AGENT_SCOPES }));
      return send(
        response,
        401,
        jsonRpcError(
          JsonRpcErrorCode.Refused,
          `The credential is longer than any the platform issues (${MAX_CREDENTIAL_LENGTH} characters).`,
        ),
      );
    }
    for (let calls = countToolCalls(request.body); calls > 0; calls--) {
      const limited = await this.limiter.take(caller.credential?.value ?? null, caller.ip);
      if (!limited.ok) {
        response.setHeader('Retry-After', String(limited.retryAfterSeconds));
        if (limited.limitedBy === 'unavailable') {
          return send(response, 503, jsonRpcError(JsonRpcErrorCode.Refused, 'The tool-call rate limiter is unavailable; retry shortly.'));
        }
        return send(
          response,
          429,
          jsonRpcError(
            JsonRpcErrorCode.Refused,
            `Too many tool calls for this ${limited.limitedBy}; retry in ${limited.retryAfterSeconds} s.`,
          ),
        );
      }
    }
    const shapeAnswer = requestShapeAnswer(request.body);
    if (shapeAnswer) return send(response, 200, shapeAnswer);
    const operations = requestOperations(request.body);
    if (!caller.credential && operations.needsCredential) {
      // Every agent scope: a client asks for exactly what the first challenge names, and one consent should serve the session.
      response.setHeader('WWW-Authenticate', this.protectedResource.challenge({ scopes: AGENT_SCOPES }));
      return send(
        response,
        401,
        jsonRpcError(
          JsonRpcErrorCode.Refused,
          'A credential is required: an API key, or an agent token from identity (see WWW-Authenticate).',
        ),
      );
    }
    if (caller.credential?.kind === 'access_token' && (operations.needsCredential || operations.listsTools)) {
      const admission = await this.authorization.admit(caller.credential, operations.scopes);
      if (admission.kind === 'invalid_token') {
        response.setHeader('WWW-Authenticate', this.protectedResource.challenge({ error: 'invalid_token', scopes: AGENT_SCOPES }));
        return send(
          response,
          401,
          jsonRpcError(
            JsonRpcErrorCode.Refused,
            'The token is not valid for this gateway (expired, revoked, or issued for another resource).',
          ),
        );
      }
      if (admission.kind === 'insufficient_scope') {
        // The scopes the token holds and those it lacks: a client re-authorizes for exactly these, so nothing it had is lost.
        const scopes = AGENT_SCOPES.filter((scope) => admission.held.includes(scope) || operations.scopes.includes(scope));
        response.setHeader('WWW-Authenticate', this.protectedResource.challenge({ error: 'insufficient_scope', scopes }));
        return send(
          response,
          403,
          jsonRpcError(JsonRpcErrorCode.Refused, `The token lacks the scope this request needs: ${operations.scopes.join(' ')}.`),
        );
      }
      if (admission.kind === 'admitted') caller.admitted = admission.subject;
    }
    const server = this.servers.create(caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      // Closing builds the SDK's ConnectionClosed error, stack and all; only an answer cut short has handlers left to abort.
      if (response.writableFinished) return;
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json');
  response.end(JSON.stringify(body));
}
