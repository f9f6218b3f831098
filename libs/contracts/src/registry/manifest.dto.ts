import { ApiProperty } from '@nestjs/swagger';
import { LocalizedTextDto } from './localized.dto';

export class ManifestCountsDto {
  @ApiProperty() standards!: number;
  @ApiProperty() standardVersions!: number;
  @ApiProperty() terms!: number;
  @ApiProperty() tasks!: number;
  @ApiProperty() roles!: number;
  @ApiProperty() policies!: number;
  @ApiProperty() policyVersions!: number;
  @ApiProperty() splitTemplates!: number;
}

export class ManifestProvenanceDto {
  @ApiProperty({ example: '2026.11.0' }) packVersion!: string;
  @ApiProperty() formatVersion!: number;
  @ApiProperty() publisher!: string;
  @ApiProperty({ format: 'date-time' }) importedAt!: string;
}

export class ManifestDto {
  @ApiProperty({ example: '2.0.0' }) apiVersion!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) title!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) description!: LocalizedTextDto;
  @ApiProperty({ type: [String], example: ['en', 'zh-Hans'] }) locales!: string[];
  @ApiProperty({ type: [String] }) capabilities!: string[];
  @ApiProperty({ type: () => ManifestCountsDto }) counts!: ManifestCountsDto;
  @ApiProperty({ type: () => ManifestProvenanceDto }) provenance!: ManifestProvenanceDto;
  @ApiProperty({ example: '{sectionId}@{version}#{clauseId}' }) citationFormat!: string;
  @ApiProperty({ example: '{policyId}@{version}' }) policyCitationFormat!: string;
  @ApiProperty({
    example: 'sha256:3b1f0c9e5a7d2b4f6e8a1c3d5b7f9e0a2c4e6b8d0f1a3c5e7b9d1f3a5c7e9b0d',
    pattern: '^sha256:[0-9a-f]{64}$',
    description: 'SHA-256 of the RFC 8785 canonical JSON of the whole content',
  })
  digest!: string;
}
