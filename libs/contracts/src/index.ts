export * from './errors';
export * from './locale';
export * from './pagination';
export * from './registry';
export * from './identity';
export * from './split-projects';
export * from './validation';
export * from './domain-errors';
