import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsOptional, IsString, Length, Matches } from 'class-validator';
import { AGENT_SCOPE_LIST } from './agent-access';
import { MAX_CREDENTIAL_LENGTH } from './decisions.dto';

/** RFC 8693's grant type and token type, the only ones identity exchanges. */
export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * RFC 8693 token exchange between the platform's services: the tool gateway trades an agent's token
 * (issued for the gateway) for a short token for the standards API that names the agent as the actor.
 */
export class TokenExchangeRequestDto {
  @ApiProperty({ enum: [TOKEN_EXCHANGE_GRANT_TYPE] })
  @Equals(TOKEN_EXCHANGE_GRANT_TYPE, { message: `grant_type must be ${TOKEN_EXCHANGE_GRANT_TYPE}` })
  grant_type!: string;

  @ApiProperty({ description: "The agent's access token for the tool gateway" })
  @IsString()
  @Length(1, MAX_CREDENTIAL_LENGTH)
  subject_token!: string;

  @ApiProperty({ enum: [ACCESS_TOKEN_TYPE] })
  @Equals(ACCESS_TOKEN_TYPE, { message: `subject_token_type must be ${ACCESS_TOKEN_TYPE}` })
  subject_token_type!: string;

  @ApiPropertyOptional({ description: "The standards API's resource indicator (the only target); absent: the same" })
  @IsOptional()
  @IsString()
  @Length(1, 2000)
  resource?: string;

  @ApiPropertyOptional({
    description: "Scopes wanted, never wider than the subject token's; absent: the subject token's",
    example: 'projects:draft',
  })
  @IsOptional()
  @Matches(AGENT_SCOPE_LIST, { message: 'scope must be agent scopes separated by spaces' })
  scope?: string;
}

export class TokenExchangeResponseDto {
  @ApiProperty() access_token!: string;
  @ApiProperty({ enum: [ACCESS_TOKEN_TYPE] }) issued_token_type!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: 'Bearer';
  @ApiProperty({ description: 'Seconds until it expires' }) expires_in!: number;
  @ApiProperty() scope!: string;
}
