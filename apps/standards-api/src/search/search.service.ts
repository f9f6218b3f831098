import { Injectable } from '@nestjs/common';
import type { SearchHitDto, SearchRequestDto, SearchResultDto } from '@stdreg/contracts';
import type { RegistryRelease } from '../registry-release/registry-release';
import { RegistryService } from '../registry/registry.service';
import { searchNoContent } from './search.errors';

const DEFAULT_HITS = 5;

/** Full-text search of the current release: one question, the best hits of one kind, their records read from the database. */
@Injectable()
export class SearchService {
  constructor(private readonly registry: RegistryService) {}

  async search(request: SearchRequestDto): Promise<SearchResultDto> {
    if (!this.registry.currentRelease()) throw searchNoContent();
    return this.registry.withCurrentRelease((release) => this.searchIn(release, request));
  }

  private async searchIn(release: RegistryRelease, request: SearchRequestDto): Promise<SearchResultDto> {
    const limit = request.limit ?? DEFAULT_HITS;
    const index = release.search;
    let hits: SearchHitDto[];
    switch (request.in) {
      case 'terms': {
        const found = index.searchTerms(request.q, limit);
        const terms = await this.registry.termRecords(
          release,
          found.map((hit) => hit.term.termId),
        );
        hits = found.map((hit, i) => ({
          id: hit.term.termId,
          score: hit.score,
          matchedWords: hit.matchedWords,
          match: hit.match,
          term: terms[i]!,
        }));
        break;
      }
      case 'roles':
        hits = index
          .searchRoles(request.q, limit)
          .map((hit) => ({ id: hit.role.role, score: hit.score, matchedWords: hit.matchedWords, role: hit.role }));
        break;
      case 'standards': {
        const found = index.searchStandards(request.q, limit);
        const blocks = await this.registry.currentBlockRecords(
          release,
          found.map((hit) => hit.block.sectionId),
        );
        hits = found.map((hit, i) => {
          const textOf = new Map(blocks[i]!.clauses.map((clause) => [clause.clauseId, clause.text]));
          return {
            id: hit.block.sectionId,
            score: hit.score,
            matchedWords: [...new Set(hit.clauses.flatMap((clause) => clause.evidence.flatMap((e) => e.words)))].sort(),
            standard: {
              sectionId: hit.block.sectionId,
              version: hit.block.version,
              citation: hit.block.citation,
              title: hit.block.title,
              terms: hit.terms,
              clauses: hit.clauses.map(({ clauseId, ...finding }) => ({
                clauseId,
                text: textOf.get(clauseId)!,
                score: finding.score,
                evidence: finding.evidence,
                stated: finding.stated,
                contradicted: finding.contradicted,
                departures: finding.departures,
              })),
            },
          };
        });
        break;
      }
    }
    return { q: request.q, in: request.in, digest: release.digest, hits };
  }
}
