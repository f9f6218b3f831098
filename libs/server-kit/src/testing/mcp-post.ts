/** One JSON-RPC message POSTed to a gateway's MCP endpoint with a bearer credential, as a stateless client sends it (no session). */
export function postMcp(
  mcpUrl: string,
  token: string,
  message: { id: number; method: string; params?: Record<string, unknown> },
): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}
