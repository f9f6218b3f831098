import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An agent's key (AGT-1): the person accountable for it, kept as named; readers follow a later merge of
 * that person to the survivor. Only app keys can be agents' keys.
 */
export class AgentKeySupervisor1763900000700 implements MigrationInterface {
  name = 'AgentKeySupervisor1763900000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE api_key ADD COLUMN agent_supervisor_uid uuid REFERENCES unified_user (uid),
         ADD CONSTRAINT api_key_agent_is_app CHECK (agent_supervisor_uid IS NULL OR class = 'app')`,
    );
    // A unified user is removed only when nothing refers to it: that check looks keys up by supervisor.
    await queryRunner.query(
      'CREATE INDEX api_key_agent_supervisor ON api_key (agent_supervisor_uid) WHERE agent_supervisor_uid IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_key DROP COLUMN agent_supervisor_uid');
  }
}
