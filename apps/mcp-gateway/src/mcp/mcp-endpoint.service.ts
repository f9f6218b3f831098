// Serves one POST /mcp: request checks, who is calling (callers/), tool-call rate limits, then a fresh server and transport (stateless).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallerAuthentication } from '../callers/caller-authentication';
import { McpGatewayConfig } from '../config/mcp-gateway.config';
import { ToolCallLimiter } from '../rate-limit/tool-call-limiter';
import { McpServerFactory } from './mcp-server.factory';
import { limitRefusal, refuse } from './mcp.errors';
import { checkOrigin, checkProtocolVersion, originPolicyOf, type OriginPolicy } from './request-checks';
import { requestOperations } from './request-operations';
import { batchAnswer, invalidMessageAnswer, requestShapeAnswer } from './request-shape';
import { withoutTaskAugmentation } from './task-augmentation';

function isToolCall(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'tools/call';
}

@Injectable()
export class McpEndpoint {
  private readonly originPolicy: OriginPolicy;

  constructor(
    config: McpGatewayConfig,
    private readonly servers: McpServerFactory,
    private readonly limiter: ToolCallLimiter,
    private readonly callers: CallerAuthentication,
  ) {
    this.originPolicy = originPolicyOf(config);
  }

  async handle(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> {
    const check = [checkOrigin(request.headers, this.originPolicy), checkProtocolVersion(request.headers)].find((result) => !result.ok);
    if (check && !check.ok) return refuse(response, check);
    const batch = batchAnswer(request.body, request.headers['content-type']);
    if (batch) return send(response, 400, batch);
    const identified = this.callers.identify(request);
    if (!identified.ok) return refuse(response, identified);
    const toolCall = isToolCall(request.body);
    if (toolCall) {
      const limited = await this.limiter.take(identified.caller.credential?.value ?? null, identified.caller.ip);
      if (!limited.ok) return refuse(response, limitRefusal(limited));
    }
    const invalid = invalidMessageAnswer(request.body, request.headers['content-type']);
    if (invalid) return send(response, 400, invalid);
    const shapeAnswer = requestShapeAnswer(request.body);
    if (shapeAnswer) return send(response, 200, shapeAnswer);
    const authenticated = await this.callers.authenticate(identified.caller, requestOperations(request.body));
    if (!authenticated.ok) return refuse(response, authenticated);
    const { caller } = authenticated;
    if (toolCall && caller.admitted) {
      const limited = await this.limiter.takeForAgent(caller.admitted);
      if (!limited.ok) return refuse(response, limitRefusal(limited));
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
    await transport.handleRequest(request, response, withoutTaskAugmentation(request.body));
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json');
  response.end(JSON.stringify(body));
}
