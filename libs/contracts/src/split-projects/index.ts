export * from './split-projects.dto';
export * from './rule-versions.dto';
export * from './comparisons-settlements.dto';
