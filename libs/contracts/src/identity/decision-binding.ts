import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a decision answer is bound to its question. identity echoes what it decided (`question`), and
 * signs the exact bytes of its answer with the asking service's own credential; the service checks
 * both before it acts on the answer. Another process answering on identity's port can neither forge
 * the signature nor replay an answer given for another question (each question carries a nonce).
 */
export const DECISION_SIGNATURE_HEADER = 'decision-signature';

/** The largest decision answer a service reads; anything longer is refused unread. */
export const DECISION_ANSWER_MAX_BYTES = 64 * 1024;

/** The credential a question names, as identity echoes it: never the credential itself. */
export function credentialDigest(credential: { kind: string; value: string }): string {
  return createHash('sha256').update(`${credential.kind}:${credential.value}`, 'utf8').digest('base64url');
}

export function decisionSignature(serviceToken: string, answerBody: string | Buffer): string {
  return `v1=${createHmac('sha256', serviceToken).update(answerBody).digest('base64url')}`;
}

export function decisionSignatureMatches(serviceToken: string, answerBody: string | Buffer, presented: string | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(decisionSignature(serviceToken, answerBody));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
