import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in: what the OpenID Provider stores (sessions, interactions, grants, codes, tokens), users'
 * passwords with their lockout state, single-use password-setup links, and each app's client secret
 * sealed with OIDC_CLIENT_SECRET_KEY (the provider compares client secrets itself, so it needs them).
 */
export class OidcSignIn1763900000200 implements MigrationInterface {
  name = 'OidcSignIn1763900000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      'ALTER TABLE registered_app ADD COLUMN client_secret_sealed bytea',
      `CREATE TABLE oidc_model (
        model text NOT NULL,
        id text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        user_code text,
        uid text,
        expires_at timestamptz,
        consumed_at timestamptz,
        PRIMARY KEY (model, id)
      )`,
      'CREATE INDEX oidc_model_grant ON oidc_model (grant_id) WHERE grant_id IS NOT NULL',
      'CREATE INDEX oidc_model_session_uid ON oidc_model (uid) WHERE uid IS NOT NULL',
      'CREATE INDEX oidc_model_expires ON oidc_model (expires_at)',
      `CREATE TABLE user_password (
        uid uuid PRIMARY KEY REFERENCES unified_user (uid) ON DELETE CASCADE,
        login_email text NOT NULL,
        password_hash text NOT NULL,
        failed_attempts integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE UNIQUE INDEX user_password_login_email ON user_password (lower(login_email))',
      `CREATE TABLE password_setup (
        token_hash bytea PRIMARY KEY,
        uid uuid NOT NULL REFERENCES unified_user (uid) ON DELETE CASCADE,
        login_email text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`,
      'CREATE INDEX password_setup_uid ON password_setup (uid)',
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['password_setup', 'user_password', 'oidc_model']) await queryRunner.query(`DROP TABLE ${table}`);
    await queryRunner.query('ALTER TABLE registered_app DROP COLUMN client_secret_sealed');
  }
}
