import type { Response } from 'express';
import { DECISION_SIGNATURE_HEADER, decisionSignature, type DecisionResponseDto } from '@stdreg/contracts';

/** The answer as the bytes sent, signed with the asking service's credential in `Decision-Signature`. */
export function signedAnswer(answer: DecisionResponseDto, serviceToken: string, response: Response): string {
  const body = JSON.stringify(answer);
  response.setHeader(DECISION_SIGNATURE_HEADER, decisionSignature(serviceToken, body));
  return body;
}
