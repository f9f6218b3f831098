import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent clients registered by RFC 7591 now expire 30 days after registering unless a person grants them
 * something (UNUSED_AGENT_CLIENT_SECONDS). Those registered before, with no grant stored, get their 30 days
 * from now, and their registration access tokens with them; a client with a grant is kept for good.
 */
export class UnusedAgentClientsExpire1763900001300 implements MigrationInterface {
  name = 'UnusedAgentClientsExpire1763900001300';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `UPDATE oidc_model c SET expires_at = now() + interval '30 days'
        WHERE c.model = 'Client' AND c.expires_at IS NULL AND c.payload->>'token_endpoint_auth_method' = 'none'
          AND NOT EXISTS (SELECT 1 FROM oidc_model g WHERE g.model = 'Grant' AND g.payload->>'clientId' = c.id)`,
      `UPDATE oidc_model r SET expires_at = c.expires_at FROM oidc_model c
        WHERE r.model = 'RegistrationAccessToken' AND r.expires_at IS NULL
          AND c.model = 'Client' AND c.id = r.payload->>'clientId' AND c.expires_at IS NOT NULL`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE oidc_model SET expires_at = NULL WHERE model IN ('Client', 'RegistrationAccessToken')`);
  }
}
