import { Body, Controller, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { DecisionRequestDto, DecisionResponseDto, ProblemDetailsDto } from '@stdreg/contracts';
import { countDecided } from '@stdreg/server-kit';
import { parseDecisionRequest } from './decision-request';
import { DecisionsService } from './decisions.service';
import { signedAnswer } from './signed-answer';
import { ServiceAuth } from '../access/callers/caller.decorators';
import type { RequestWithService } from '../access/callers/service-token.guard';

@ApiTags('authorization')
@ApiBearerAuth('service')
@ServiceAuth('decisions')
@Controller('decisions')
export class DecisionsController {
  constructor(private readonly decisions: DecisionsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Resource authorization for the platform services: allow or deny, with the resolved subject and a reason',
    description:
      'Formal writes (split-project:activate, rule-version:create, settlement-run:post) need a human user; ' +
      'an API key, and so every agent, is denied them whatever its class, and the person must have signed in within ' +
      '`FORMAL_WRITE_MAX_AGE_SECONDS` (else `authentication_too_old`, with that limit as `maxAge`: the person signs in again). ' +
      'An unknown action is denied.',
  })
  @ApiBody({ type: DecisionRequestDto })
  @ApiOkResponse({ type: DecisionResponseDto })
  @ApiUnauthorizedResponse({ description: 'Missing or wrong service credential', type: ProblemDetailsDto })
  @Header('Content-Type', 'application/json; charset=utf-8')
  // The body is typed unknown so the global ValidationPipe leaves it to parseDecisionRequest. The answer
  // goes out as the exact bytes signed (signedAnswer).
  decide(@Body() body: unknown, @Req() request: RequestWithService, @Res({ passthrough: true }) response: Response): Promise<string> {
    return this.decisions
      .decide(parseDecisionRequest(body), request.serviceName!)
      .then(countDecided)
      .then((answer) => signedAnswer(answer, request.serviceToken!, response));
  }
}
