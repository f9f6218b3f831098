import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization an audit entry concerns, so an organization's key reads its own entries only and an operator
 * can show one organization its log. Earlier entries get it where the entry itself tells it (the same reading the
 * services now write): an organization's creation, a key's, an app's or a registry's organization, a webhook's or
 * role's `organizationId`, a decision's resource, else an app or agent key acting. The rest stay null (a person's
 * sign-in and tokens, merges, waitlist requests, platform key uses). The append-only trigger is set aside for this
 * one statement, in the migration's transaction: nothing an entry says is changed, a column derived from it is filled.
 */
export class AuditEntryOrganization1765000000007 implements MigrationInterface {
  name = 'AuditEntryOrganization1765000000007';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE audit_entry ADD COLUMN organization_id uuid');
    await queryRunner.query('ALTER TABLE audit_entry DISABLE TRIGGER audit_entry_append_only');
    await queryRunner.query(
      `WITH derived AS (
         SELECT e.id,
                COALESCE(
                  CASE WHEN e.action = 'organizations.create' THEN (SELECT o.id FROM organization o WHERE o.id::text = e.target) END,
                  CASE WHEN e.action LIKE 'keys.%' THEN (SELECT k.organization_id FROM api_key k WHERE k.id::text = e.target) END,
                  CASE WHEN e.action LIKE 'apps.%' THEN (SELECT a.organization_id FROM registered_app a WHERE a.registry_id = e.target) END,
                  (SELECT a.organization_id FROM registered_app a WHERE a.registry_id = e.detail->>'registryId'),
                  (SELECT o.id FROM organization o
                    WHERE o.id::text = COALESCE(e.detail->>'organizationId', e.detail->'resource'->>'organizationId')),
                  CASE WHEN e.actor_kind IN ('app_key', 'agent') THEN
                    (SELECT k.organization_id FROM api_key_secret s JOIN api_key k ON k.id = s.key_id WHERE s.prefix = e.actor_id) END
                ) AS organization_id
           FROM audit_entry e
       )
       UPDATE audit_entry e SET organization_id = derived.organization_id
         FROM derived WHERE derived.id = e.id AND derived.organization_id IS NOT NULL`,
    );
    await queryRunner.query('ALTER TABLE audit_entry ENABLE TRIGGER audit_entry_append_only');
    await queryRunner.query('CREATE INDEX audit_entry_organization ON audit_entry (organization_id, id) WHERE organization_id IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX audit_entry_organization');
    await queryRunner.query('ALTER TABLE audit_entry DROP COLUMN organization_id');
  }
}
