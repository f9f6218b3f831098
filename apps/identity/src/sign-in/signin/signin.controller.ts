import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SigninPageErrorFilter } from '../pages/page-error.filter';
import { SigninService } from './signin.service';

/** The sign-in pages the OpenID Provider sends browsers to (`interactions.url`): HTML, not part of the REST API. */
@ApiExcludeController()
@UseFilters(SigninPageErrorFilter)
@Controller('signin')
export class SigninController {
  constructor(private readonly signin: SigninService) {}

  @Get(':uid')
  show(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signin.show(req, res);
  }

  @Post(':uid/login')
  login(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signin.login(req, res);
  }

  @Post(':uid/consent')
  consent(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signin.consent(req, res);
  }

  @Post(':uid/abort')
  abort(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signin.abort(req, res);
  }
}
