import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A unified user's verified email is vouched for by one organization (or, for an app without one,
 * one registry): its `email_scope`. Mirror records join by email only within that scope, and a
 * login email is unique only among the users of one scope. Existing users take the scope of their
 * first mirror record.
 */
export class EmailVouchingScope1763900000300 implements MigrationInterface {
  name = 'EmailVouchingScope1763900000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      'ALTER TABLE unified_user ADD COLUMN email_scope text',
      `UPDATE unified_user u SET email_scope = first.scope
         FROM (SELECT DISTINCT ON (m.uid) m.uid, coalesce(r.organization_id::text, 'registry:' || r.registry_id) AS scope
                 FROM user_mirror m JOIN registered_app r ON r.registry_id = m.registry_id
                ORDER BY m.uid, m.created_at, m.id) first
        WHERE first.uid = u.uid`,
      // A user no record vouches for (inserted by hand) shares its email with nobody.
      `UPDATE unified_user SET email_scope = 'unscoped:' || uid WHERE email_scope IS NULL`,
      `ALTER TABLE unified_user ALTER COLUMN email_scope SET DEFAULT 'unscoped:' || gen_random_uuid()`,
      'ALTER TABLE unified_user ALTER COLUMN email_scope SET NOT NULL',
      'DROP INDEX unified_user_verified_email',
      `CREATE UNIQUE INDEX unified_user_verified_email ON unified_user (email_scope, lower(email)) WHERE email_verified AND merged_into IS NULL`,
      'DROP INDEX user_password_login_email',
      'CREATE INDEX user_password_login_email ON user_password (lower(login_email))',
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      'DROP INDEX user_password_login_email',
      'CREATE UNIQUE INDEX user_password_login_email ON user_password (lower(login_email))',
      'DROP INDEX unified_user_verified_email',
      `CREATE UNIQUE INDEX unified_user_verified_email ON unified_user (lower(email)) WHERE email_verified AND merged_into IS NULL`,
      'ALTER TABLE unified_user DROP COLUMN email_scope',
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }
}
