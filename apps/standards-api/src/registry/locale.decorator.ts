import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { isLocale, type Locale as LocaleCode } from '@stdreg/contracts';
import { negotiateLocale } from './language';

/** The locale a registry read answers in, or null for both. */
export type NegotiatedLocale = LocaleCode | null;

/**
 * `?lang=` (validated and documented by the route's query DTO), else the best supported language
 * of Accept-Language, else null.
 */
export const Locale = createParamDecorator((_: unknown, context: ExecutionContext): NegotiatedLocale => {
  const request = context.switchToHttp().getRequest<Request>();
  const lang = request.query['lang'];
  return negotiateLocale(typeof lang === 'string' && isLocale(lang) ? lang : undefined, request.headers['accept-language']);
});
