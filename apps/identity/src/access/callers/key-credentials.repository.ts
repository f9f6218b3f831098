import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { KeyClass } from '@stdreg/contracts';
import { preparedQuery } from '@stdreg/server-kit/database';
import { KEY_CREDENTIAL } from './key-credentials.repository.sql';

/** A key as one of its secrets presents it: what a keyed request needs to be checked. */
export interface KeyCredential {
  keyId: string;
  keyClass: KeyClass;
  organizationId: string | null;
  maxApps: number;
  revokedAt: Date | null;
  secretHash: Buffer;
  /** How long the secret works on, by the database's clock (negative once it ended); null while current. */
  expiresInMs: number | null;
  registryIds: string[];
  agentSupervisorUid: string | null;
}

/** The one query of the key check (keys are written by KeysRepository). */
@Injectable()
export class KeyCredentialsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** On every keyed request and every decision: a prepared statement, planned once per connection. */
  async findCredential(prefix: string): Promise<KeyCredential | null> {
    const rows = await preparedQuery<KeyCredential>(this.dataSource, 'identity_key_credential', KEY_CREDENTIAL, [prefix]);
    return rows[0] ?? null;
  }
}
