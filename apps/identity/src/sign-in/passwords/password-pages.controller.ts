import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PasswordPagesService } from './password-pages.service';

/** The page a password-setup link opens: HTML, not part of the REST API. */
@ApiExcludeController()
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
