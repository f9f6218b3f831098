import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The key that issued each password link, so revoking the key voids its unspent links. Links issued
 * before this migration are given theirs from `created_by`, the prefix of the secret they were issued
 * with (secrets are never deleted); those of keys already revoked, or for records of apps already
 * deleted, are voided now, as they would have been since. A row whose prefix names no secret cannot
 * come from the API; it is removed (voided first, so nothing spends it meanwhile).
 */
export class PasswordSetupIssuer1763900001200 implements MigrationInterface {
  name = 'PasswordSetupIssuer1763900001200';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      'ALTER TABLE password_setup ADD COLUMN issued_by_key uuid REFERENCES api_key (id)',
      'UPDATE password_setup p SET issued_by_key = s.key_id FROM api_key_secret s WHERE s.prefix = p.created_by',
      `UPDATE password_setup p SET expires_at = now()
        WHERE p.used_at IS NULL AND p.expires_at > now()
          AND (p.issued_by_key IS NULL
               OR EXISTS (SELECT 1 FROM api_key k WHERE k.id = p.issued_by_key AND k.revoked_at IS NOT NULL)
               OR EXISTS (SELECT 1 FROM registered_app r WHERE r.registry_id = p.registry_id AND r.deleted_at IS NOT NULL))`,
      'DELETE FROM password_setup WHERE issued_by_key IS NULL',
      'ALTER TABLE password_setup ALTER COLUMN issued_by_key SET NOT NULL',
      'CREATE INDEX password_setup_unspent_by_key ON password_setup (issued_by_key) WHERE used_at IS NULL',
      'CREATE INDEX password_setup_unspent_by_registry ON password_setup (registry_id) WHERE used_at IS NULL',
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      'DROP INDEX password_setup_unspent_by_registry',
      'DROP INDEX password_setup_unspent_by_key',
      'ALTER TABLE password_setup DROP COLUMN issued_by_key',
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }
}
