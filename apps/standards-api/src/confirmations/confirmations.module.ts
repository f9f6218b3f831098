import { Module } from '@nestjs/common';
import { ConfirmationsRepository } from './confirmations.repository';
import { ConfirmationsService } from './confirmations.service';

@Module({ providers: [ConfirmationsRepository, ConfirmationsService], exports: [ConfirmationsService] })
export class ConfirmationsModule {}
