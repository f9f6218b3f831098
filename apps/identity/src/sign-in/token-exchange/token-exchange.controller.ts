import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ProblemDetailsDto, TokenExchangeRequestDto, TokenExchangeResponseDto } from '@stdreg/contracts';
import { ServiceAuth } from '../../access/callers/caller.decorators';
import { TokenExchangeService } from './token-exchange.service';

@ApiTags('authorization')
@ApiBearerAuth('service')
@ServiceAuth('token-exchange')
@Controller('token-exchange')
export class TokenExchangeController {
  constructor(private readonly exchanges: TokenExchangeService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "RFC 8693 token exchange for the platform's services: an agent's gateway token for a standards-API token naming the agent",
    description:
      'The answer is a JWT for the standards API with the same person, grant and sign-in time, scopes never wider than the ' +
      "subject token's, `act.sub` naming the agent client, and a life of at most 300 s (never past the subject token). " +
      'No formal action is ever allowed on it.',
  })
  @ApiOkResponse({ type: TokenExchangeResponseDto })
  @ApiUnauthorizedResponse({ description: 'Missing or wrong service credential', type: ProblemDetailsDto })
  @ApiUnprocessableEntityResponse({
    description: 'A subject token that is no live agent token, another target, or a wider scope',
    type: ProblemDetailsDto,
  })
  exchange(@Body() request: TokenExchangeRequestDto): Promise<TokenExchangeResponseDto> {
    return this.exchanges.exchange(request);
  }
}
