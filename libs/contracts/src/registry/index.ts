export * from './localized.dto';
export * from './registry-query.dto';
export * from './standards.dto';
export * from './catalogue.dto';
export * from './manifest.dto';
export * from './search.dto';
export * from './practice-sentences';
export * from './registry-order';
