// Schemas more than one tool uses.
import { z } from 'zod';

export const localized = z.object({ en: z.string(), 'zh-Hans': z.string() }).strict();
export const locale = z.enum(['en', 'zh-Hans']);
export const text = (max: number) => z.string().trim().min(1).max(max);
export const failure = (message: string) => ({ ok: false as const, message });
