import { Injectable } from '@nestjs/common';
import type { SearchHitDto, SearchRequestDto, SearchResultDto } from '@stdreg/contracts';
import { RegistryService } from '../registry/registry.service';
import { searchNoContent } from './search.errors';

const DEFAULT_HITS = 5;

/** Full-text search of the current release: one question, the best hits of one kind. */
@Injectable()
export class SearchService {
  constructor(private readonly registry: RegistryService) {}

  search(request: SearchRequestDto): SearchResultDto {
    const snapshot = this.registry.currentSnapshot() ?? throwNoContent();
    const limit = request.limit ?? DEFAULT_HITS;
    const index = snapshot.search;
    let hits: SearchHitDto[];
    switch (request.in) {
      case 'terms':
        hits = index.searchTerms(request.q, limit).map((hit) => ({
          id: hit.term.termId,
          score: hit.score,
          matchedWords: hit.matchedWords,
          match: hit.match,
          term: hit.term,
        }));
        break;
      case 'roles':
        hits = index
          .searchRoles(request.q, limit)
          .map((hit) => ({ id: hit.role.role, score: hit.score, matchedWords: hit.matchedWords, role: hit.role }));
        break;
      case 'standards':
        hits = index.searchStandards(request.q, limit).map((hit) => ({
          id: hit.block.sectionId,
          score: hit.score,
          matchedWords: [...new Set(hit.clauses.flatMap((clause) => clause.evidence.flatMap((e) => e.words)))].sort(),
          standard: {
            sectionId: hit.block.sectionId,
            version: hit.block.version,
            citation: hit.block.citation,
            title: hit.block.title,
            terms: hit.terms,
            clauses: hit.clauses,
          },
        }));
        break;
    }
    return { q: request.q, in: request.in, digest: snapshot.digest, hits };
  }
}

function throwNoContent(): never {
  throw searchNoContent();
}
