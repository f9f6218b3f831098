import type { CompactTextIndex } from './compact-text-index';

/** The block a clause belongs to: its id up to the `#` (RUL-3#2 is a clause of RUL-3). */
export function blockOfClause(clauseId: string): string {
  return clauseId.slice(0, clauseId.indexOf('#'));
}

/**
 * The block of each clause of the clause index, by the clause's number there: an alignment search's sentence ranks
 * a thousand clauses at full size, and their blocks are told apart by number, each block's id one string (its hash
 * worked out once), rather than by a new string cut from each clause's id.
 */
export class ClauseBlocks {
  private readonly blockOfDocument: Int32Array;
  private readonly sectionIds: string[] = [];

  constructor(clauseIndex: CompactTextIndex) {
    this.blockOfDocument = new Int32Array(clauseIndex.documentCount);
    const numberOf = new Map<string, number>();
    for (let document = 0; document < clauseIndex.documentCount; document++) {
      const sectionId = blockOfClause(clauseIndex.idOf(document));
      let block = numberOf.get(sectionId);
      if (block === undefined) {
        numberOf.set(sectionId, (block = this.sectionIds.length));
        this.sectionIds.push(sectionId);
      }
      this.blockOfDocument[document] = block;
    }
  }

  /** The number of the block of the clause numbered `document` in the clause index. */
  blockOf(document: number): number {
    return this.blockOfDocument[document]!;
  }

  /** The id of the block numbered `block`. */
  sectionIdOf(block: number): string {
    return this.sectionIds[block]!;
  }
}
