import { Controller, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PasswordSetupDto, ProblemDetailsDto } from '@stdreg/contracts';
import { type KeyCaller } from '../../access/callers/caller';
import { Caller } from '../../access/callers/caller.decorators';
import { AgentKeyRefused, KeyAuth } from '../../access/callers/caller.decorators';
import { agentKeyRefused } from './passwords.errors';
import { PasswordsService } from './passwords.service';

@ApiTags('sign-in')
@KeyAuth()
@Controller('users')
export class PasswordsController {
  constructor(private readonly passwords: PasswordsService) {}

  @Post(':id/password-setup')
  @AgentKeyRefused(agentKeyRefused)
  @ApiOperation({
    summary: 'A single-use, expiring link that lets the user of a mirror record set a password for OIDC sign-in',
    description:
      'The user signs in with the record’s email. The link is answered once, here; deliver it to the user. ' +
      'A newer link replaces older unused ones; revoking the key that issued it, or deleting the user’s app, voids it. ' +
      'An app key may ask only for users that belong to its own registries alone; an agent’s key may not ask at all.',
  })
  @ApiCreatedResponse({ type: PasswordSetupDto })
  @ApiNotFoundResponse({ description: 'The user does not exist or its registry is not bound to the key', type: ProblemDetailsDto })
  @ApiForbiddenResponse({
    description: "The user also belongs to apps outside this app key; or the key is an agent's, which never issues a password link",
    type: ProblemDetailsDto,
  })
  issue(@Param('id', new ParseUUIDPipe()) id: string, @Caller() caller: KeyCaller): Promise<PasswordSetupDto> {
    return this.passwords.issueSetup(id, caller);
  }
}
