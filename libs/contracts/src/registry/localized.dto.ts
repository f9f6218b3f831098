import { ApiProperty } from '@nestjs/swagger';

export class LocalizedTextDto {
  @ApiProperty({ example: 'Basis point' })
  en!: string;

  @ApiProperty({ name: 'zh-Hans', example: '基点' })
  'zh-Hans'!: string;
}

export class LocalizedListDto {
  @ApiProperty({ type: [String] })
  en!: string[];

  @ApiProperty({ name: 'zh-Hans', type: [String] })
  'zh-Hans'!: string[];
}
