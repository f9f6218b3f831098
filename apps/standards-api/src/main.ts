import { runService } from '@stdreg/server-kit';
import { STANDARDS_API } from './standards-api.service';

await runService(STANDARDS_API);
