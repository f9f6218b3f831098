import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { httpStatusFor, JsonLogger, ProblemDetailsFilter } from '@stdreg/server-kit';
import { chooseLocale } from './signin-locale';
import { messagePage, sendPage } from './signin-pages';
import { textsFor, type Texts } from './signin-texts';

/** What a page-error page says: its title, and its message when the failure is a 503 (something away) or anything else. */
interface PageErrorTexts {
  title: (texts: Texts) => string;
  unavailable: string;
  otherwise: string;
}

/**
 * A failure of identity's own on a people-facing page (its database away, say) answered as a page in the person's
 * language, with the status and headers problem details would have had: a browser is never shown an error body.
 */
abstract class PageErrorFilter implements ExceptionFilter {
  private readonly problems: ProblemDetailsFilter;

  constructor(
    logger: JsonLogger,
    private readonly textsOf: (texts: Texts) => PageErrorTexts,
  ) {
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
    const page = this.textsOf(textsFor(locale));
    sendPage(response, status, messagePage(locale, page.title, status === 503 ? page.unavailable : page.otherwise, 'alert'));
  }
}

/** The sign-in, consent and logout pages' failures. */
@Catch()
export class SigninPageErrorFilter extends PageErrorFilter {
  constructor(@Inject(JsonLogger) logger: JsonLogger) {
    super(logger, (texts) => ({ title: (t) => t.errorTitle, unavailable: texts.signInUnavailable, otherwise: texts.errorBack }));
  }
}

/** The password-setup page's failures. */
@Catch()
export class PasswordPageErrorFilter extends PageErrorFilter {
  constructor(@Inject(JsonLogger) logger: JsonLogger) {
    super(logger, (texts) => ({
      title: (t) => t.setPasswordTitle,
      unavailable: texts.passwordSetupUnavailable,
      otherwise: texts.passwordSetupFailed,
    }));
  }
}
