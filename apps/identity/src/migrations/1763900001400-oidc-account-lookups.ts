import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A new password ends the person's sign-ins (`OidcStoreRepository.endSignInsOf`): their grants and sessions are
 * found by the account they belong to, which the provider keeps only in the payload. Without this, each password
 * set read every grant and session of every person.
 */
export class OidcAccountLookups1763900001400 implements MigrationInterface {
  name = 'OidcAccountLookups1763900001400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX oidc_model_account ON oidc_model (model, (payload->>'accountId')) WHERE model IN ('Grant', 'Session')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX oidc_model_account');
  }
}
