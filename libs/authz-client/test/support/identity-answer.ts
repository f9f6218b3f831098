import type { ServerResponse } from 'node:http';
import { credentialDigest, DECISION_SIGNATURE_HEADER, decisionSignature } from '@stdreg/contracts';

export const SERVICE_TOKEN = 'service-token';

/** What identity echoes for a decision request body (see decision-binding). */
export function questionOf(requestBody: string): Record<string, unknown> {
  const asked = JSON.parse(requestBody) as {
    credential: { kind: string; value: string };
    action: string;
    resource: Record<string, string>;
    nonce?: string;
    audience?: string;
    scope?: string;
  };
  return {
    action: asked.action,
    resource: asked.resource,
    credentialDigest: credentialDigest(asked.credential),
    nonce: asked.nonce ?? null,
    ...(asked.audience === undefined ? {} : { audience: asked.audience }),
    ...(asked.scope === undefined ? {} : { scope: asked.scope }),
  };
}

/** Answers a decision request as identity does: the question echoed, the exact bytes signed with `token`. */
export function answerAsIdentity(
  requestBody: string,
  response: ServerResponse,
  answer: Record<string, unknown>,
  token = SERVICE_TOKEN,
): void {
  const body = JSON.stringify({ ...answer, question: questionOf(requestBody) });
  response.setHeader('content-type', 'application/json');
  response.setHeader(DECISION_SIGNATURE_HEADER, decisionSignature(token, body));
  response.end(body);
}
