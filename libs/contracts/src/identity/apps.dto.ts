import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, Length, ValidateBy, type ValidationOptions } from 'class-validator';
import { IsDisplayText } from '../validation';

export const APP_TYPES = ['Traditional'] as const;
export type AppType = (typeof APP_TYPES)[number];

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Sign-in callback rule: absolute https, or http on a loopback host; never a fragment. */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000) return 'must be an absolute URI of at most 2000 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URI';
  }
  if (value.includes('#')) return 'must not contain a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'must use https (http is allowed only on localhost)';
}

function IsRedirectUri(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isRedirectUri',
      validator: {
        validate: (value) => redirectUriProblem(value) === null,
        defaultMessage: (args) => {
          const entries: unknown[] = Array.isArray(args?.value) ? args.value : [args?.value];
          const index = entries.findIndex((entry) => redirectUriProblem(entry) !== null);
          const entry = entries[Math.max(index, 0)];
          return `${args?.property}[${Math.max(index, 0)}] ${JSON.stringify(entry)} ${redirectUriProblem(entry)}`;
        },
      },
    },
    options,
  );
}

export class RegisterAppRequestDto {
  @ApiProperty({ example: 'Acme Revenue Portal', maxLength: 100 })
  @IsString()
  @Length(1, 100)
  @IsDisplayText()
  name!: string;

  @ApiProperty({ enum: APP_TYPES, description: 'Traditional: a confidential web client using the authorization code flow' })
  @IsIn(APP_TYPES, { message: `type must be one of: ${APP_TYPES.join(', ')}` })
  type!: AppType;

  @ApiProperty({
    type: [String],
    example: ['https://portal.acme.example/callback'],
    description: 'Absolute https URIs (http only on localhost, 127.0.0.1 or [::1]), at most 2000 characters each, never with a fragment',
  })
  @IsArray()
  @ArrayMinSize(1, { message: 'redirectUris must list at least one URI' })
  @ArrayMaxSize(20)
  @IsRedirectUri({ each: true })
  redirectUris!: string[];
}

export class RegisteredAppDto {
  @ApiProperty({ example: 'reg_0k3n5b2x9q1m4v7c8z6w' }) registryId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: APP_TYPES }) type!: AppType;
  @ApiProperty({ type: [String] }) redirectUris!: string[];
  @ApiProperty({ description: 'OIDC client id' }) clientId!: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The organization of the key that registered it' })
  organizationId!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class AppRegistrationDto {
  @ApiProperty({ type: () => RegisteredAppDto }) app!: RegisteredAppDto;
  @ApiProperty({ description: 'OIDC client secret, shown this once' }) clientSecret!: string;
}
