import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PasswordPageErrorFilter } from '../pages/page-error.filter';
import { PasswordPagesService } from './password-pages.service';

/** The page a password-setup link opens: HTML, not part of the REST API. */
@ApiExcludeController()
@UseFilters(PasswordPageErrorFilter)
@Controller('password-setup')
export class PasswordPagesController {
  constructor(private readonly pages: PasswordPagesService) {}

  @Get(':token')
  show(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.pages.show(req, res);
  }

  @Post(':token')
  submit(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.pages.submit(req, res);
  }
}
