import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type {
  BrandSnapshot,
  PackMeta,
  PolicyVersion,
  Role,
  SplitTemplate,
  StandardBlockVersion,
  TaskSpec,
  Term,
} from '@stdreg/registry-content';

/** One imported content pack: the history of what the registry has served (append-only). */
@Entity('content_release')
export class ContentReleaseEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  sequence!: string;

  @Column({ name: 'pack_version', type: 'text' })
  packVersion!: string;

  @Column({ name: 'format_version', type: 'integer' })
  formatVersion!: number;

  @Column({ type: 'text' })
  publisher!: string;

  @Column({ type: 'text' })
  digest!: string;

  @Column({ name: 'imported_at', type: 'timestamptz' })
  importedAt!: Date;

  @Column({ type: 'jsonb' })
  meta!: PackMeta;
}

@Entity('standard_block_version')
export class StandardBlockVersionEntity {
  /** The release (content_release.sequence) the record belongs to. */
  @PrimaryColumn({ type: 'bigint' })
  release!: string;

  @PrimaryColumn({ name: 'section_id', type: 'text' })
  sectionId!: string;

  @PrimaryColumn({ type: 'text' })
  version!: string;

  @Column({ type: 'text' })
  status!: 'current' | 'superseded';

  @Column({ name: 'effective_from', type: 'date' })
  effectiveFrom!: string;

  @Column({ type: 'jsonb' })
  doc!: StandardBlockVersion;
}

@Entity('term')
export class TermEntity {
  /** The release (content_release.sequence) the record belongs to. */
  @PrimaryColumn({ type: 'bigint' })
  release!: string;

  @PrimaryColumn({ name: 'term_id', type: 'text' })
  termId!: string;

  @Column({ type: 'jsonb' })
  doc!: Term;
}

@Entity('task_spec')
export class TaskSpecEntity {
  /** The release (content_release.sequence) the record belongs to. */
  @PrimaryColumn({ type: 'bigint' })
  release!: string;

  @PrimaryColumn({ name: 'task_code', type: 'text' })
  taskCode!: string;

  @Column({ type: 'jsonb' })
  doc!: TaskSpec;
}

@Entity('registry_role')
export class RoleEntity {
  /** The release (content_release.sequence) the record belongs to. */
  @PrimaryColumn({ type: 'bigint' })
  release!: string;

  @PrimaryColumn({ type: 'text' })
  role!: string;

  @Column({ type: 'jsonb' })
  doc!: Role;
}

@Entity('policy_version')
export class PolicyVersionEntity {
  /** The release (content_release.sequence) the record belongs to. */
  @PrimaryColumn({ type: 'bigint' })
  release!: string;

  @PrimaryColumn({ name: 'policy_id', type: 'text' })
  policyId!: string;

  @PrimaryColumn({ type: 'text' })
  version!: string;

  @Column({ name: 'effective_from', type: 'date' })
  effectiveFrom!: string;

  @Column({ name: 'effective_to', type: 'date', nullable: true })
  effectiveTo!: string | null;

  @Column({ type: 'jsonb' })
  doc!: PolicyVersion;
}

@Entity('brand_snapshot')
export class BrandSnapshotEntity {
  /** The release (content_release.sequence) the record belongs to. */
  @PrimaryColumn({ type: 'bigint' })
  release!: string;

  @PrimaryColumn({ name: 'snapshot_id', type: 'text' })
  snapshotId!: string;

  @Column({ type: 'jsonb' })
  doc!: BrandSnapshot;
}

@Entity('split_template')
export class SplitTemplateEntity {
  /** The release (content_release.sequence) the record belongs to. */
  @PrimaryColumn({ type: 'bigint' })
  release!: string;

  @PrimaryColumn({ type: 'text' })
  version!: string;

  @Column({ type: 'text' })
  status!: 'current' | 'superseded';

  @Column({ type: 'jsonb' })
  doc!: SplitTemplate;
}

export const REGISTRY_ENTITIES = [
  ContentReleaseEntity,
  StandardBlockVersionEntity,
  TermEntity,
  TaskSpecEntity,
  RoleEntity,
  PolicyVersionEntity,
  BrandSnapshotEntity,
  SplitTemplateEntity,
];
