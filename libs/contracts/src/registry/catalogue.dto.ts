import { ApiProperty } from '@nestjs/swagger';
import { LocalizedListDto, LocalizedTextDto } from './localized.dto';

export class TermDto {
  @ApiProperty({ example: 'basis-point' }) termId!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) term!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) definition!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedListDto }) synonyms!: LocalizedListDto;
  @ApiProperty({
    type: () => LocalizedListDto,
    description:
      'More names the term answers to in each language (abbreviations, everyday phrases, the synonyms practitioners use); searched like synonyms',
  })
  designations!: LocalizedListDto;
  @ApiProperty({ type: [String] }) related!: string[];
  @ApiProperty({ type: [String], description: 'sectionIds of related standards' }) standards!: string[];
}

export class RoleDto {
  @ApiProperty({ example: 'settlement-approver' }) role!: string;
  @ApiProperty({ enum: ['stakeholder', 'operational'] }) kind!: 'stakeholder' | 'operational';
  @ApiProperty({ type: () => LocalizedTextDto }) name!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) description!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedListDto }) responsibilities!: LocalizedListDto;
  @ApiProperty({ description: 'May approve formal writes' }) canApprove!: boolean;
}

export class TaskIoDto {
  @ApiProperty({ example: 'scenario-draft' }) name!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) description!: LocalizedTextDto;
}

export class TaskSpecDto {
  @ApiProperty({ example: 'TSK-012' }) taskCode!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) title!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) description!: LocalizedTextDto;
  @ApiProperty({ type: [String] }) roles!: string[];
  @ApiProperty({ type: [String] }) prerequisites!: string[];
  @ApiProperty({ type: () => [TaskIoDto] }) inputs!: TaskIoDto[];
  @ApiProperty({ type: () => [TaskIoDto] }) outputs!: TaskIoDto[];
  @ApiProperty({ type: () => [LocalizedTextDto] }) acceptanceCriteria!: LocalizedTextDto[];
  @ApiProperty({ type: [String], example: ['RUL-3@2.0'] }) standards!: string[];
}

export class PolicyVersionRefDto {
  @ApiProperty({ example: '2.0' }) version!: string;
  @ApiProperty({ example: '2026-01-01' }) effectiveFrom!: string;
  @ApiProperty({ nullable: true, type: String, example: null }) effectiveTo!: string | null;
}

export class PolicyDto {
  @ApiProperty({ example: 'agent-use' }) policyId!: string;
  @ApiProperty({ example: '2.0' }) version!: string;
  @ApiProperty({ example: '2026-01-01' }) effectiveFrom!: string;
  @ApiProperty({ nullable: true, type: String }) effectiveTo!: string | null;
  @ApiProperty({ type: () => LocalizedTextDto }) title!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) summary!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) body!: LocalizedTextDto;
  @ApiProperty({ example: 'agent-use@2.0', description: 'Versioned citation' }) citation!: string;
  @ApiProperty({ type: () => [PolicyVersionRefDto] }) versions!: PolicyVersionRefDto[];
}

export class BrandLogoDto {
  @ApiProperty({ format: 'uri' }) uri!: string;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$' }) sha256!: string;
}

export class BrandTypographyDto {
  @ApiProperty() latin!: string;
  @ApiProperty() han!: string;
}

export class BrandSnapshotDto {
  @ApiProperty({ example: 'brand-2026-10' }) snapshotId!: string;
  @ApiProperty({ format: 'date-time' }) pinnedAt!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) name!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) tagline!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) voice!: LocalizedTextDto;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { primary: '#1F4E79' } })
  colors!: Record<string, string>;
  @ApiProperty({ type: () => BrandTypographyDto }) typography!: BrandTypographyDto;
  @ApiProperty({ type: () => BrandLogoDto }) logo!: BrandLogoDto;
}

export class SplitTemplateTierDto {
  @ApiProperty({ example: 'platform-fee' }) tierId!: string;
  @ApiProperty({ enum: ['fixed', 'percentage'] }) kind!: 'fixed' | 'percentage';
  @ApiProperty({ type: () => LocalizedTextDto }) label!: LocalizedTextDto;
  @ApiProperty({ nullable: true, type: Number, minimum: 1, maximum: 10000 }) capBasisPoints!: number | null;
}

export class SplitTemplateDto {
  @ApiProperty({ example: '2.0' }) version!: string;
  @ApiProperty({ enum: ['current', 'superseded'] }) status!: 'current' | 'superseded';
  @ApiProperty({ type: () => LocalizedTextDto }) name!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) description!: LocalizedTextDto;
  @ApiProperty({ type: [String] }) participantRoles!: string[];
  @ApiProperty({ type: () => [SplitTemplateTierDto] }) tiers!: SplitTemplateTierDto[];
  @ApiProperty({ type: [String] }) standards!: string[];
  @ApiProperty({ type: [String], description: 'Every template version, oldest first' }) versions!: string[];
}
