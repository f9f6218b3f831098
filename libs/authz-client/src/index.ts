export * from './authorization-client';
