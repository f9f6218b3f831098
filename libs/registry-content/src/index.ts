export * from './pack-types';
export * from './digest';
export * from './validate-pack';
export * from './load-pack';
export { SECTION_ID, TASK_CODE } from './pack-schema';
