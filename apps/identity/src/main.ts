import { runService } from '@stdreg/server-kit';
import { IDENTITY } from './identity.service';

await runService(IDENTITY);
