import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { IsDisplayText } from '../validation';

export class CreateOrganizationRequestDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @IsDisplayText()
  name!: string;
}

export class OrganizationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}
