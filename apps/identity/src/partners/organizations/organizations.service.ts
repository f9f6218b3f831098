import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { KeyClass, type OrganizationDto } from '@stdreg/contracts';
import { keysetPage, uuidv7 } from '@stdreg/server-kit';
import type { Actor } from '../../platform/audit-trail/actor';
import { AuditService } from '../../platform/audit-trail/audit.service';
import type { KeyCaller } from '../../access/callers/caller';
import { notOwnOrganization, organizationNotFound } from './organizations.errors';
import { OrganizationsRepository, type Organization } from './organizations.repository';

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly audit: AuditService,
  ) {}

  create(name: string, actor: Actor): Promise<OrganizationDto> {
    return this.dataSource.transaction((manager) => this.createIn(manager, name, actor));
  }

  /** Creates an organization inside the caller's transaction (waitlist approval). */
  async createIn(manager: EntityManager, name: string, actor: Actor): Promise<OrganizationDto> {
    const row = await this.organizations.insert(manager, uuidv7(), name.trim());
    await this.audit.record(
      actor,
      { action: 'organizations.create', target: row.id, organizationId: row.id, detail: { name: row.name } },
      manager,
    );
    return toOrganizationDto(row);
  }

  async get(id: string): Promise<OrganizationDto> {
    const row = await this.organizations.find(id);
    if (!row) throw organizationNotFound(id);
    return toOrganizationDto(row);
  }

  /** An app key reads only its own organization (the tool gateway shows it to agents); a platform key any. */
  getFor(caller: KeyCaller, id: string): Promise<OrganizationDto> {
    if (caller.keyClass !== KeyClass.Platform && caller.organizationId !== id) {
      throw notOwnOrganization();
    }
    return this.get(id);
  }

  list(query: { limit?: number; cursor?: string }): Promise<{ items: OrganizationDto[]; nextCursor: string | null }> {
    return keysetPage('organizations', query, (afterId, limit) => this.organizations.list(afterId, limit), toOrganizationDto);
  }
}

function toOrganizationDto(row: Organization): OrganizationDto {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString() };
}
