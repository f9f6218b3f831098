import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IdentityCore1763900000000 implements MigrationInterface {
  name = 'IdentityCore1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE organization (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE api_key (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        class text NOT NULL CHECK (class IN ('app', 'platform')),
        organization_id uuid REFERENCES organization (id),
        max_apps integer NOT NULL DEFAULT 3 CHECK (max_apps BETWEEN 1 AND 100),
        created_at timestamptz NOT NULL DEFAULT now(),
        rotated_at timestamptz,
        revoked_at timestamptz,
        CHECK (class = 'platform' OR organization_id IS NOT NULL)
      )`,
      // A key's secrets: the current one, and after a rotation the previous one until it expires.
      `CREATE TABLE api_key_secret (
        prefix text PRIMARY KEY,
        key_id uuid NOT NULL REFERENCES api_key (id),
        secret_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz
      )`,
      `CREATE INDEX api_key_secret_key ON api_key_secret (key_id)`,
      `CREATE TABLE registered_app (
        registry_id text PRIMARY KEY,
        name text NOT NULL,
        type text NOT NULL,
        redirect_uris text[] NOT NULL,
        client_id text NOT NULL UNIQUE,
        client_secret_hash bytea NOT NULL,
        organization_id uuid REFERENCES organization (id),
        registered_by_key uuid NOT NULL REFERENCES api_key (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`,
      `CREATE INDEX registered_app_key ON registered_app (registered_by_key) WHERE deleted_at IS NULL`,
      `CREATE TABLE key_registry_binding (
        key_id uuid NOT NULL REFERENCES api_key (id),
        registry_id text NOT NULL REFERENCES registered_app (registry_id),
        bound_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (key_id, registry_id)
      )`,
      `CREATE TABLE waitlist_request (
        id uuid PRIMARY KEY,
        organization_name text NOT NULL,
        contact_name text NOT NULL,
        contact_email text NOT NULL,
        use_case text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        decision_reason text,
        issued_key_id uuid REFERENCES api_key (id)
      )`,
      `CREATE INDEX waitlist_request_status ON waitlist_request (status, id)`,
      `CREATE TABLE unified_user (
        uid uuid PRIMARY KEY,
        email text,
        email_verified boolean NOT NULL DEFAULT false,
        display_name text,
        merged_into uuid REFERENCES unified_user (uid),
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX unified_user_verified_email ON unified_user (lower(email)) WHERE email_verified AND merged_into IS NULL`,
      `CREATE TABLE user_mirror (
        id uuid PRIMARY KEY,
        registry_id text NOT NULL REFERENCES registered_app (registry_id),
        external_id text NOT NULL,
        email text NOT NULL,
        email_verified boolean NOT NULL,
        display_name text NOT NULL,
        locale text NOT NULL,
        uid uuid NOT NULL REFERENCES unified_user (uid),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (registry_id, external_id)
      )`,
      `CREATE INDEX user_mirror_email ON user_mirror (registry_id, lower(email))`,
      `CREATE INDEX user_mirror_uid ON user_mirror (uid)`,
      `CREATE TABLE app_link (
        uid uuid NOT NULL REFERENCES unified_user (uid),
        registry_id text NOT NULL REFERENCES registered_app (registry_id),
        linked_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (uid, registry_id)
      )`,
      `CREATE TABLE role_binding (
        id uuid PRIMARY KEY,
        uid uuid NOT NULL REFERENCES unified_user (uid),
        role text NOT NULL,
        organization_id uuid REFERENCES organization (id),
        granted_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE NULLS NOT DISTINCT (uid, role, organization_id)
      )`,
      `CREATE TABLE user_merge (
        id uuid PRIMARY KEY,
        survivor_uid uuid NOT NULL REFERENCES unified_user (uid),
        merged_uid uuid NOT NULL REFERENCES unified_user (uid),
        moved jsonb NOT NULL,
        merged_at timestamptz NOT NULL DEFAULT now(),
        unmerged_at timestamptz
      )`,
      `CREATE TABLE audit_entry (
        id uuid PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor_kind text NOT NULL,
        actor_id text NOT NULL,
        action text NOT NULL,
        target text,
        outcome text NOT NULL CHECK (outcome IN ('success', 'denied', 'failure')),
        detail jsonb NOT NULL DEFAULT '{}',
        request_id text
      )`,
      `CREATE INDEX audit_entry_actor ON audit_entry (actor_id, id)`,
      `CREATE INDEX audit_entry_action ON audit_entry (action, id)`,
      `CREATE FUNCTION refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_entry is append-only';
      END $$`,
      `CREATE TRIGGER audit_entry_append_only BEFORE UPDATE OR DELETE ON audit_entry
        FOR EACH ROW EXECUTE FUNCTION refuse_audit_change()`,
      `CREATE TRIGGER audit_entry_no_truncate BEFORE TRUNCATE ON audit_entry
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change()`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'audit_entry',
      'user_merge',
      'role_binding',
      'app_link',
      'user_mirror',
      'unified_user',
      'waitlist_request',
      'key_registry_binding',
      'registered_app',
      'api_key_secret',
      'api_key',
      'organization',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
    await queryRunner.query('DROP FUNCTION refuse_audit_change()');
  }
}
