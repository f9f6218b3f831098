export * from './split-projects.dto';
