import type { MigrationInterface, QueryRunner } from 'typeorm';

/** JWT access tokens revoked before their expiry (RFC 7009), by jti; a row is needed only until the token expires. */
export class RevokedAccessToken1763900000400 implements MigrationInterface {
  name = 'RevokedAccessToken1763900000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE revoked_access_token (
      jti text PRIMARY KEY,
      client_id text NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query('CREATE INDEX revoked_access_token_expires ON revoked_access_token (expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE revoked_access_token');
  }
}
