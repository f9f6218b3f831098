import { RegistryContent1763800000000 } from './1763800000000-registry-content';
import { SplitProjects1763950000000 } from './1763950000000-split-projects';

/** Every migration of standards-api, in order. */
export const STANDARDS_API_MIGRATIONS = [RegistryContent1763800000000, SplitProjects1763950000000];
