import { ApiProperty } from '@nestjs/swagger';

/** A single-use link that lets a user set their password, answered once to whoever asked for it. */
export class PasswordSetupDto {
  @ApiProperty({ format: 'uuid', description: 'The unified user whose password the link sets (the survivor, for a merged user)' })
  uid!: string;

  @ApiProperty({ format: 'email', description: 'The email the user signs in with: the mirror record’s' })
  loginEmail!: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;

  @ApiProperty({
    format: 'uri',
    description: 'The page that sets the password; deliver it to the user. Works once; a newer link replaces it.',
  })
  setupUrl!: string;
}
