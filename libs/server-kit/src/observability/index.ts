export * from './trace-context';
export * from './metrics';
