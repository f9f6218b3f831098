// The vocabulary of a text index as flat arrays: its tokens sorted and packed into one string, with their
// ends, the length each shares with the one before and their rank in the order MiniSearch's radix tree
// (SearchableMap) would list them, in typed arrays. At 100 000 bilingual terms the tree was 31 MB of heap
// per index (a Map per node and a string per edge); this is a few MB (docs/decisions.md, issue 30).
//
// A look-up answers what the tree answered, in its order: a prefix's tokens as its iterator lists them and
// the tokens within a number of edits in the order its typo search finds them. That order is the tree's,
// which depends on the order the tokens were set: a node's entries (its children and the entry of the
// token ending there) are in the order they were last set in its Map. An entry is set when both its node
// and the node under it exist, and a node with path P exists from the first token equal to P or the
// second token that branches at P, whichever comes first (`FlatVocabulary.of` works that out).
import { reusedInt32Array } from './reused-array';

const HAN_FIRST = /^\p{Script=Han}/u;

/** Whether a token starts with a Han character: the vocabulary keeps those apart from the others. */
export function startsWithHan(token: string): boolean {
  return HAN_FIRST.test(token);
}
/** The shared lengths are kept in a byte: a longer one is kept as 255, which only costs recomputing rows. */
const MOST_SHARED = 255;
/** The least shared length of each block of this many positions, and of each run of this many blocks, is kept to skip them. */
const BLOCK = 32;

/** The least of each block of BLOCK values. */
function leastOfBlocks(values: Uint8Array): Uint8Array {
  const least = new Uint8Array(Math.ceil(values.length / BLOCK)).fill(MOST_SHARED);
  values.forEach((value, i) => {
    const block = Math.floor(i / BLOCK);
    if (value < least[block]!) least[block] = value;
  });
  return least;
}

/** The tokens a typo look-up finds, in the tree's order: their numbers, lengths and distances to the term. */
export interface TokensWithinDistance {
  tokens: number[];
  lengths: number[];
  distances: number[];
}

/** What a vocabulary is made of: what a stored index keeps of it (search-index-snapshot.ts). */
export interface VocabularyParts {
  packed: string;
  ends: Int32Array;
  shared: Uint8Array;
  rankOf: Int32Array;
  tokenOf: Int32Array;
  hanStart: number;
}

export class FlatVocabulary {
  private constructor(
    /** The tokens in sorted order (those that start with a Han character after the others), side by side. */
    private readonly packed: string,
    /** Where the token at each sorted position ends in `packed`. */
    private readonly ends: Int32Array,
    /** How many characters the token at each sorted position shares with the one before (at most 255). */
    private readonly shared: Uint8Array,
    /** The rank of the token at each sorted position in the tree's order (its typo search's; its iterator's reversed). */
    private readonly rankOf: Int32Array,
    /** The token number at each sorted position. */
    private readonly tokenOf: Int32Array,
    /** The first sorted position of a token that starts with a Han character. */
    private readonly hanStart: number,
  ) {
    this.blockLeast = leastOfBlocks(shared);
    this.runLeast = leastOfBlocks(this.blockLeast);
  }

  /** The least shared length of each block of 32 positions, and of each run of 32 blocks. */
  private readonly blockLeast: Uint8Array;
  private readonly runLeast: Uint8Array;
  /** A prefix's tokens by rank (eachWithPrefix): a word found by prefix has thousands of tokens, and each search looks new words up. */
  private readonly byRank = reusedInt32Array();

  /**
   * The vocabulary of these tokens (distinct, none empty), token number i being tokens[i]: the order they were
   * met, in which they would have been set in the tree.
   */
  static of(tokens: readonly string[]): FlatVocabulary {
    const count = tokens.length;
    const other: number[] = [];
    const han: number[] = [];
    tokens.forEach((token, tokenNumber) => (startsWithHan(token) ? han : other).push(tokenNumber));
    const byText = (a: number, b: number) => (tokens[a]! < tokens[b]! ? -1 : 1);
    const sorted = [...other.sort(byText), ...han.sort(byText)];
    const ends = new Int32Array(count);
    const shared = new Uint8Array(count);
    const sharedExactly = new Int32Array(count);
    let end = 0;
    sorted.forEach((tokenNumber, position) => {
      const token = tokens[tokenNumber]!;
      ends[position] = end += token.length;
      if (position === 0) return;
      const previous = tokens[sorted[position - 1]!]!;
      let length = 0;
      while (length < token.length && length < previous.length && token.charCodeAt(length) === previous.charCodeAt(length)) length++;
      sharedExactly[position] = length;
      shared[position] = Math.min(length, MOST_SHARED);
    });
    const tokenAtRank = treeOrder(sorted, sharedExactly, (position) => tokens[sorted[position]!]!.length);
    const rankOf = new Int32Array(count);
    const positionOf = new Int32Array(count);
    sorted.forEach((tokenNumber, position) => (positionOf[tokenNumber] = position));
    tokenAtRank.forEach((tokenNumber, rank) => (rankOf[positionOf[tokenNumber]!] = rank));
    const packed = sorted.map((tokenNumber) => tokens[tokenNumber]).join('');
    return new FlatVocabulary(packed, ends, shared, rankOf, Int32Array.from(sorted), other.length);
  }

  /** A vocabulary as parts() gave it. */
  static fromParts(parts: VocabularyParts): FlatVocabulary {
    return new FlatVocabulary(parts.packed, parts.ends, parts.shared, parts.rankOf, parts.tokenOf, parts.hanStart);
  }

  parts(): VocabularyParts {
    const { packed, ends, shared, rankOf, tokenOf, hanStart } = this;
    return { packed, ends, shared, rankOf, tokenOf, hanStart };
  }

  /** How many tokens it has. */
  get size(): number {
    return this.ends.length;
  }

  /** The number of the token equal to the term, if there is one. */
  get(term: string): number | undefined {
    const [from, to] = this.segmentOf(term);
    const position = this.firstAtOrAfter(term, from, to);
    if (position < to && this.lengthAt(position) === term.length && this.sharesPrefix(position, term, term.length))
      return this.tokenAt(position);
    return undefined;
  }

  /**
   * Each token that starts with the prefix and its length, in the order the tree's iterator lists them
   * (SearchableMap's atPrefix, in the half of the tokens whose first character is Han or not as the prefix's).
   */
  eachWithPrefix(prefix: string, visit: (tokenNumber: number, length: number) => void): void {
    const [from, to] = this.segmentOf(prefix);
    const start = this.firstAtOrAfter(prefix, from, to);
    if (start === to || !this.sharesPrefix(start, prefix, prefix.length)) return;
    const end = this.afterGroup(start, to, prefix.length);
    // A prefix's tokens are one subtree of the tree, so their ranks are consecutive (but for the empty prefix,
    // whose half is not one subtree): listed from the highest, as the iterator walks a node's entries from its last.
    let least = Infinity;
    let most = -1;
    for (let position = start; position < end; position++) {
      least = Math.min(least, this.rankOf[position]!);
      most = Math.max(most, this.rankOf[position]!);
    }
    const byRank = this.byRank.take(end - start);
    if (most - least + 1 === end - start) {
      for (let position = start; position < end; position++) byRank[this.rankOf[position]! - least] = position;
    } else {
      for (let i = 0; i < byRank.length; i++) byRank[i] = start + i;
      byRank.sort((a, b) => this.rankOf[a]! - this.rankOf[b]!);
    }
    for (let i = byRank.length - 1; i >= 0; i--) visit(this.tokenOf[byRank[i]!]!, this.lengthAt(byRank[i]!));
  }

  /**
   * The tokens at most `maxDistance` edits (Levenshtein, in UTF-16 units) from the term, with their distances,
   * in the order the tree's typo search (SearchableMap's fuzzyGet) finds them: of every token, or with
   * `otherFirstOnly` of those that do not start with a Han character.
   */
  withinDistance(term: string, maxDistance: number, otherFirstOnly: boolean): TokensWithinDistance {
    const found: number[] = [];
    const distances: number[] = [];
    const columns = term.length + 1;
    const termUnits = Uint16Array.from({ length: term.length }, (_, i) => term.charCodeAt(i));
    // Row i holds the distances from the first i characters of the token at hand to each prefix of the term;
    // a row is computed only within maxDistance of the diagonal, the rest keeps maxDistance + 1 (as MiniSearch's).
    const rows = new Uint8Array((columns + maxDistance + 1) * columns).fill(maxDistance + 1);
    for (let column = 0; column < columns; column++) rows[column] = column;
    for (let row = 1; row <= columns + maxDistance; row++) rows[row * columns] = row;
    const walk = (from: number, to: number) => {
      let computed = 0;
      let position = from;
      while (position < to) {
        if (position > from) computed = Math.min(computed, this.shared[position]!);
        const start = position === 0 ? 0 : this.ends[position - 1]!;
        const length = this.ends[position]! - start;
        let prunedAt = 0;
        for (let row = computed + 1; row <= length; row++) {
          if (row > columns - 1 + maxDistance) {
            prunedAt = row;
            break;
          }
          const character = this.packed.charCodeAt(start + row - 1);
          const here = row * columns;
          const above = here - columns;
          let least = rows[here]!;
          const last = Math.min(columns - 1, row + maxDistance);
          for (let column = Math.max(1, row - maxDistance); column <= last; column++) {
            const replace = rows[above + column - 1]! + (character === termUnits[column - 1] ? 0 : 1);
            const distance = Math.min(replace, rows[above + column]! + 1, rows[here + column - 1]! + 1);
            rows[here + column] = distance;
            if (distance < least) least = distance;
          }
          computed = row;
          if (least > maxDistance) {
            prunedAt = row;
            break;
          }
        }
        if (prunedAt > 0) {
          // Every token that shares these characters is as far: skipped.
          computed = prunedAt - 1;
          position = this.afterGroup(position, to, prunedAt);
          continue;
        }
        const distance = rows[length * columns + columns - 1]!;
        if (distance <= maxDistance) {
          found.push(position);
          distances.push(distance);
        }
        position++;
      }
    };
    walk(0, this.hanStart);
    if (!otherFirstOnly) walk(this.hanStart, this.size);
    const order = found.map((_, i) => i).sort((a, b) => this.rankOf[found[a]!]! - this.rankOf[found[b]!]!);
    return {
      tokens: order.map((i) => this.tokenAt(found[i]!)),
      lengths: order.map((i) => this.lengthAt(found[i]!)),
      distances: order.map((i) => distances[i]!),
    };
  }

  private segmentOf(term: string): [number, number] {
    return startsWithHan(term) ? [this.hanStart, this.size] : [0, this.hanStart];
  }

  private tokenAt(position: number): number {
    return this.tokenOf[position]!;
  }

  private lengthAt(position: number): number {
    return this.ends[position]! - (position === 0 ? 0 : this.ends[position - 1]!);
  }

  /** Whether the token at a position starts with the first `length` characters of the text. */
  private sharesPrefix(position: number, text: string, length: number): boolean {
    const start = position === 0 ? 0 : this.ends[position - 1]!;
    if (this.ends[position]! - start < length) return false;
    for (let i = 0; i < length; i++) if (this.packed.charCodeAt(start + i) !== text.charCodeAt(i)) return false;
    return true;
  }

  /**
   * The first position after `position` (up to `to`) whose token does not share the first `length` characters
   * of the token at `position`: read off the shared lengths one by one, then by galloping over the characters.
   */
  private afterGroup(position: number, to: number, length: number): number {
    if (length > MOST_SHARED) {
      const from = position === 0 ? 0 : this.ends[position - 1]!;
      return this.afterGallop(position, to, (other) => this.sharesWith(other, from, length));
    }
    // The first position whose shared length is below `length`: through the rest of its block of 32, then
    // over whole blocks (and runs of 32 blocks) that share at least that much, then through the block found.
    const { shared, blockLeast, runLeast } = this;
    let next = position + 1;
    for (; next < to && next % BLOCK !== 0; next++) if (shared[next]! < length) return next;
    while (next < to) {
      const block = next / BLOCK;
      if (block % BLOCK === 0 && runLeast[block / BLOCK]! >= length) next += BLOCK * BLOCK;
      else if (blockLeast[block]! >= length) next += BLOCK;
      else {
        for (const end = Math.min(next + BLOCK, to); next < end; next++) if (shared[next]! < length) return next;
      }
    }
    return to;
  }

  /** Whether the token at a position starts with the `length` characters of `packed` from `from`. */
  private sharesWith(position: number, from: number, length: number): boolean {
    const start = position === 0 ? 0 : this.ends[position - 1]!;
    if (this.ends[position]! - start < length) return false;
    for (let i = 0; i < length; i++) if (this.packed.charCodeAt(start + i) !== this.packed.charCodeAt(from + i)) return false;
    return true;
  }

  /** The first position from `from` to `to` whose token is not below the text (by UTF-16 units, as `<`). */
  private firstAtOrAfter(text: string, from: number, to: number): number {
    let low = from;
    let high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.isBelow(middle, text)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private isBelow(position: number, text: string): boolean {
    const start = position === 0 ? 0 : this.ends[position - 1]!;
    const length = this.ends[position]! - start;
    const common = Math.min(length, text.length);
    for (let i = 0; i < common; i++) {
      const difference = this.packed.charCodeAt(start + i) - text.charCodeAt(i);
      if (difference !== 0) return difference < 0;
    }
    return length < text.length;
  }

  /**
   * The first position after `position` (and up to `to`) where `holds` stops holding, given it holds from
   * `position` on up to some point: a few steps one by one, then galloping and halving.
   */
  private afterGallop(position: number, to: number, holds: (position: number) => boolean): number {
    let next = position + 1;
    for (let steps = 0; steps < 8; steps++, next++) if (next >= to || !holds(next)) return next;
    let low = next;
    let step = 1;
    while (next < to && holds(next)) {
      low = next + 1;
      next += step;
      step *= 2;
    }
    let high = Math.min(next, to);
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (holds(middle)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * The token numbers in the order of the radix tree SearchableMap makes when the tokens are set in the order
 * of their numbers (its typo search's order), from the tokens in sorted order (each half sorted) and the
 * length each shares with the one before.
 */
function treeOrder(sorted: readonly number[], shared: Int32Array, lengthAt: (position: number) => number): Int32Array {
  const count = sorted.length;
  const most = 2 * count + 1;
  // The tree's nodes (0 its root): each one's depth, parent, token (the one ending there, or -1), the
  // first token number under it, when it came to exist, and the two first token numbers of its children.
  const depth = new Int32Array(most);
  const parent = new Int32Array(most).fill(-1);
  const token = new Int32Array(most).fill(-1);
  const earliest = new Int32Array(most);
  const created = new Int32Array(most);
  const firstOfChildren = new Int32Array(most).fill(count);
  const secondOfChildren = new Int32Array(most).fill(count);
  let nodes = 1;
  const finish = (node: number) => {
    const own = token[node]! >= 0 ? token[node]! : count;
    earliest[node] = Math.min(own, firstOfChildren[node]!);
    created[node] = Math.min(own, secondOfChildren[node]!);
  };
  const attach = (child: number, to: number) => {
    parent[child] = to;
    const first = earliest[child]!;
    if (first < firstOfChildren[to]!) {
      secondOfChildren[to] = firstOfChildren[to]!;
      firstOfChildren[to] = first;
    } else if (first < secondOfChildren[to]!) secondOfChildren[to] = first;
  };
  // The nodes from the root to the last token's, as a stack.
  const path = new Int32Array(most);
  let top = 0;
  for (let position = 0; position < count; position++) {
    const common = position === 0 ? 0 : shared[position]!;
    while (depth[path[top]!]! > common) {
      const node = path[top--]!;
      finish(node);
      const above = path[top]!;
      if (depth[above]! >= common) attach(node, above);
      else {
        const branch = nodes++;
        depth[branch] = common;
        path[++top] = branch;
        attach(node, branch);
      }
    }
    const leaf = nodes++;
    depth[leaf] = lengthAt(position);
    token[leaf] = sorted[position]!;
    path[++top] = leaf;
  }
  while (top > 0) {
    const node = path[top--]!;
    finish(node);
    attach(node, path[top]!);
  }
  created[0] = -1;

  // Each node's entries (children, and -1 - node for the token ending at it) in the order they were set.
  const entryStarts = new Int32Array(nodes + 1);
  for (let node = 1; node < nodes; node++) entryStarts[parent[node]! + 1]!++;
  for (let node = 0; node < nodes; node++) if (token[node]! >= 0) entryStarts[node + 1]!++;
  for (let node = 0; node < nodes; node++) entryStarts[node + 1]! += entryStarts[node]!;
  const entries = new Int32Array(entryStarts[nodes]!);
  const filled = entryStarts.slice(0, nodes);
  for (let node = 0; node < nodes; node++) if (token[node]! >= 0) entries[filled[node]!++] = -1 - node;
  for (let node = 1; node < nodes; node++) entries[filled[parent[node]!]!++] = node;
  // An entry is set once the node and the one under it exist; at most one existed before its node (the
  // child the node was split above), and it is set first, so the entries are in the order the nodes under them came to exist.
  const setAt = new Int32Array(entries.length);
  for (let i = 0; i < entries.length; i++) setAt[i] = entries[i]! < 0 ? token[-1 - entries[i]!]! : created[entries[i]!]!;
  for (let node = 0; node < nodes; node++) {
    const from = entryStarts[node]!;
    const to = entryStarts[node + 1]!;
    if (to - from > 16) {
      const ordered = Array.from({ length: to - from }, (_, i) => from + i).sort((a, b) => setAt[a]! - setAt[b]!);
      const orderedEntries = ordered.map((i) => entries[i]!);
      entries.set(orderedEntries, from);
      continue;
    }
    // Most nodes have two or three entries: sorted by insertion.
    for (let i = from + 1; i < to; i++) {
      const entry = entries[i]!;
      const key = setAt[i]!;
      let j = i - 1;
      for (; j >= from && setAt[j]! > key; j--) {
        entries[j + 1] = entries[j]!;
        setAt[j + 1] = setAt[j]!;
      }
      entries[j + 1] = entry;
      setAt[j + 1] = key;
    }
  }

  // Depth first, each node's entries first to last: the order the typo search meets the tokens.
  const tokenAtRank = new Int32Array(count);
  let rank = 0;
  const pending: number[] = [];
  const enter = (node: number) => {
    for (let i = entryStarts[node + 1]! - 1; i >= entryStarts[node]!; i--) pending.push(entries[i]!);
  };
  enter(0);
  while (pending.length > 0) {
    const entry = pending.pop()!;
    if (entry < 0) tokenAtRank[rank++] = token[-1 - entry]!;
    else enter(entry);
  }
  return tokenAtRank;
}
