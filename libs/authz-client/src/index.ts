export * from './authorization-client';
export * from './authorized-service-config';
export * from './authorization-client.provider';
export * from './forwarded-credential';
