import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A draft split project can be discarded: marked, never deleted (its scenarios' revisions and the write audit stay
 * append-only), by whom and when. A discarded project is no longer the organization's: not listed, not counted
 * against the drafts' bound, not found.
 */
export class SplitProjectDiscarded1765000000010 implements MigrationInterface {
  name = 'SplitProjectDiscarded1765000000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE split_project ADD COLUMN discarded_at timestamptz, ADD COLUMN discarded_by text,
         ADD CONSTRAINT split_project_discarded_by_whom CHECK ((discarded_at IS NULL) = (discarded_by IS NULL))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The release before this one knows no discard: discarded drafts are drafts again there (nothing of them is lost,
    // and the write audit still says who discarded them); removing them would break the revisions' append-only rule.
    await queryRunner.query('ALTER TABLE split_project DROP COLUMN discarded_at, DROP COLUMN discarded_by');
  }
}
