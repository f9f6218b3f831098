// The gateway declares no `tasks` capability, so (MCP 2025-11-25, tasks) it must process a task-augmented request
// as a plain one, ignoring `params.task`; the SDK would refuse every such request with -32603 before its handler.

/** The message with `params.task` dropped when it is a request that has one. */
export function withoutTaskAugmentation(message: unknown): unknown {
  if (typeof message !== 'object' || message === null || typeof (message as { method?: unknown }).method !== 'string') return message;
  const { params } = message as { params?: unknown };
  if (typeof params !== 'object' || params === null || !('task' in params)) return message;
  const plain: Record<string, unknown> = { ...params };
  delete plain['task'];
  return { ...message, params: plain };
}
