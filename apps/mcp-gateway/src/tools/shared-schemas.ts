// Schemas and refusals more than one tool uses.
import { isStandardsApiCallerError, type ToolRefusalCode } from '@stdreg/contracts';
import { z } from 'zod';
import { standardsApiCodeOf, type UpstreamResult } from '../upstream/upstream-result';

export const localized = z.object({ en: z.string(), 'zh-Hans': z.string() }).strict();
export const locale = z.enum(['en', 'zh-Hans']);
export const text = (max: number) => z.string().trim().min(1).max(max);
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
