import type { ReadinessCheck } from '@stdreg/server-kit';

const UPSTREAM_TIMEOUT_MS = 1500;

/** Ready when the upstream service answers its own liveness probe. */
export function upstreamReadinessCheck(name: string, baseUrl: string): ReadinessCheck {
  const url = new URL('/healthz', baseUrl);
  return {
    name,
    check: async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${name} answered ${response.status}`);
    },
  };
}
