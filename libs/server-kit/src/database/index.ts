export * from './embedded-postgres';
export * from './database.module';
