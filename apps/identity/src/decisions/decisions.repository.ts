import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { databaseNow } from '@stdreg/server-kit/database';

/** Every query of decisions. */
@Injectable()
export class DecisionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The database's clock: a sign-in's age is measured by it, whichever replica decides. */
  now(): Promise<Date> {
    return databaseNow(this.dataSource.manager);
  }
}
