// Schemas and refusals more than one tool uses.
import { displayTextProblem, isStandardsApiCallerError, type ToolRefusalCode } from '@stdreg/contracts';
import { z } from 'zod';
import { standardsApiCodeOf, type UpstreamResult } from '../upstream/upstream-result';

export const localized = z.object({ en: z.string(), 'zh-Hans': z.string() }).strict();
export const locale = z.enum(['en', 'zh-Hans']);
export const text = (max: number) => z.string().trim().min(1).max(max);
/** A name people will read, held to the rule standards-api and identity hold it to (contracts' IsDisplayText). */
export const displayName = (max: number) =>
  text(max).superRefine((value, context) => {
    const problem = displayTextProblem(value);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });
export const failure = (message: string, code: ToolRefusalCode = 'tool_refused') => ({ ok: false as const, message, code });

/**
 * standards-api refused what a tool asked of it: the one place its domain codes become a tool's refusal.
 * A refusal of the caller itself (credential, organization, permission) reads as the gateway's own
 * `Refused: ...`; any other names standards-api and what it refused.
 */
export function standardsApiRefusal(result: Extract<UpstreamResult<unknown>, { ok: false }>, what: string) {
  const code = standardsApiCodeOf(result);
  if (code === undefined) return failure(`standards-api refused ${what}: ${result.message}`, 'upstream_failed');
  return isStandardsApiCallerError(code)
    ? failure(`Refused: ${result.message}`, code)
    : failure(`standards-api refused ${what}: ${result.message}`, code);
}
