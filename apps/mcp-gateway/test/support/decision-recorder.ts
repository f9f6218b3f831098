// A pass-through in front of identity that notes the action of every decision asked through it, and identity's own count.
import { passThrough } from './request-counter';

export interface DecisionRecorder {
  /** Give this to a service as IDENTITY_URL. */
  url: string;
  /** The actions asked through this recorder, in order. */
  actions: string[];
  close(): Promise<void>;
}

/** Bodies and headers pass unchanged both ways, so identity's signed answers still verify. */
export async function recordDecisions(identityUrl: string): Promise<DecisionRecorder> {
  const actions: string[] = [];
  const recorder = await passThrough(identityUrl, (method, path, body) => {
    if (method === 'POST' && path === '/v1/decisions') actions.push((JSON.parse(body.toString('utf8')) as { action: string }).action);
  });
  return { ...recorder, actions };
}

/** Every decision identity has answered so far, whoever asked (its `authorization_decisions_total{side="decided"}`). */
export async function decisionsAnswered(identityUrl: string): Promise<number> {
  const text = await fetch(`${identityUrl}/metrics`).then((response) => response.text());
  return text
    .split('\n')
    .filter((line) => line.startsWith('authorization_decisions_total{side="decided"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
