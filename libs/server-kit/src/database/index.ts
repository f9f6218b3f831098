export * from './embedded-postgres';
export * from './database.module';
export * from './migration-policy';
export * from './migration-command';
export * from './prepared-query';
export * from './event-outbox';
export * from './database-clock';
