import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { httpStatusFor, JsonLogger, ProblemDetailsFilter } from '@stdreg/server-kit';
import { chooseLocale } from './signin-locale';
import { messagePage, sendPage } from './signin-pages';
import { textsFor } from './signin-texts';

/**
 * A failure of identity's own on a sign-in page (its database away, say) answered as a page in the person's
 * language, with the status and headers problem details would have had: a browser is never shown an error body.
 */
@Catch()
export class PageErrorFilter implements ExceptionFilter {
  private readonly problems: ProblemDetailsFilter;

  constructor(@Inject(JsonLogger) logger: JsonLogger) {
    this.problems = new ProblemDetailsFilter(logger);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const error = this.problems.problemOf(exception, request);
    if (response.headersSent) {
      response.end();
      return;
    }
    const status = httpStatusFor(error.code);
    for (const [name, value] of Object.entries(error.headers ?? {})) response.setHeader(name, value);
    const lang = request.query['lang'];
    const locale = chooseLocale(typeof lang === 'string' ? lang : undefined, request.headers['accept-language']);
    const t = textsFor(locale);
    sendPage(
      response,
      status,
      messagePage(locale, (texts) => texts.errorTitle, status === 503 ? t.signInUnavailable : t.errorBack, 'alert'),
    );
  }
}
