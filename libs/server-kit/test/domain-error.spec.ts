import { ErrorCode } from '@stdreg/contracts';
import { httpStatusFor, titleFor } from '../src';

describe('error codes', () => {
  it('maps every code to an HTTP error status and a title', () => {
    for (const code of Object.values(ErrorCode)) {
      expect(httpStatusFor(code)).toBeGreaterThanOrEqual(400);
      expect(titleFor(code)).toEqual(expect.any(String));
    }
  });

  it('uses the statuses the design names', () => {
    expect(httpStatusFor(ErrorCode.ValidationFailed)).toBe(400);
    expect(httpStatusFor(ErrorCode.PreconditionFailed)).toBe(412);
    expect(httpStatusFor(ErrorCode.DomainRuleViolated)).toBe(422);
    expect(httpStatusFor(ErrorCode.ConfirmationRequired)).toBe(428);
    expect(httpStatusFor(ErrorCode.AuthorizationUnavailable)).toBe(503);
  });
});
