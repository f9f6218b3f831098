import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SearchRequestDto, SearchResultDto } from '@stdreg/contracts';
import { ApiRegistryErrors } from '../api-decorators/api-decorators';
import { SearchService } from './search.service';

/** Anonymous full-text search of the registry; a POST only because a described practice can be long. */
@ApiTags('registry')
@ApiRegistryErrors()
@Controller('search')
export class SearchController {
  constructor(private readonly searchService: SearchService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Search terms, clauses of the current standards or roles in either language (BM25 with field weights, prefixes, typos, Chinese words and character pairs); reads only',
  })
  @ApiOkResponse({ type: SearchResultDto })
  search(@Body() body: SearchRequestDto): Promise<SearchResultDto> {
    return this.searchService.search(body);
  }
}
