import { loadPack, samplePackDirectory } from '@stdreg/registry-content';
import { sampleSearchSource } from '../../test/support/sample-search-source';
import { blockRelevance, RegistrySearchIndex, wholePracticeNames, type IndexedStandard } from './registry-search-index';

let index: RegistrySearchIndex;

beforeAll(async () => {
  const loaded = await loadPack(samplePackDirectory());
  if (!loaded.ok) throw new Error('the sample pack does not load');
  index = await RegistrySearchIndex.build(sampleSearchSource(loaded.pack));
});

const topTerm = (text: string) => index.searchTerms(text, 5)[0]?.term.termId;

/** What the index says of one clause of a practice: contradicted, stated or neither. */
function finding(practice: string, clause: string) {
  const [sectionId, clauseId] = clause.split('#');
  const found = index
    .searchStandards(practice, 10)
    .find((hit) => hit.block.sectionId === sectionId)
    ?.clauses.find((c) => c.clauseId === clauseId);
  return found ? (found.contradicted.length > 0 ? 'contradicted' : found.stated.length > 0 ? 'stated' : 'neither') : 'not found';
}

describe('the registry search index', () => {
  it('finds a term by a misspelling, a prefix, a designation and a Chinese synonym', () => {
    expect(topTerm('disbursment')).toBe('payout');
    expect(topTerm('exchange rat')).toBe('exchange-rate');
    expect(topTerm('four eyes')).toBe('separation-of-duties');
    expect(topTerm('红冲')).toBe('reversal');
    expect(topTerm('basis points')).toBe('basis-point');
    expect(topTerm('審計軌跡')).toBe('audit-log');
  });

  it('puts the term a text names outright before terms found by search, and says how it matched', () => {
    const [first] = index.searchTerms('基点', 5);
    expect(first).toMatchObject({ match: 'exact', term: { termId: 'basis-point' } });
    expect(index.searchTerms('bps', 5)[0]).toMatchObject({ match: 'synonym', term: { termId: 'basis-point' } });
  });

  it('reads the same ranking of terms whether it ranks one hit at first (and more as read) or every one, hits or ids alone', () => {
    /** Every item of a ranking read one position after another, until `at` answers undefined. */
    const readAll = <T>(at: (position: number) => T | undefined): T[] => {
      const items: T[] = [];
      for (let position = 0; ; position++) {
        const item = at(position);
        if (item === undefined) return items;
        items.push(item);
      }
    };
    const every = (query: string, firstHits: number) => {
      const ranked = index.rankTerms(query, firstHits);
      return readAll((position) => ranked.hitAt(position));
    };
    const everyId = (query: string, firstHits: number) => {
      const ranked = index.rankTerms(query, firstHits);
      return readAll((position) => ranked.termIdAt(position));
    };
    // Names (which put their term first), common words, a prefix, a misspelling, Chinese, a term id.
    const queries = [
      '基点',
      'bps',
      'payment',
      'settlement run approval',
      'exchange rat',
      'disbursment',
      '付款 审批',
      'basis-point',
      'the',
      'settlement',
      'rule',
      'split',
      'partner',
      '结算',
      'record',
      'version',
      'agent',
    ];
    const sizes = queries.map((query) => {
      const all = every(query, 100_000);
      expect(every(query, 1)).toEqual(all);
      expect(everyId(query, 1)).toEqual(all.map((hit) => hit.term.termId));
      expect(index.searchTerms(query, 3)).toEqual(all.slice(0, 3));
      return all.length;
    });
    // Some ranking is long enough to be ranked further twice: 1 hit, then 4, then 16.
    expect(Math.max(...sizes)).toBeGreaterThan(4);
  });

  it('finds a term by a misspelling the index alone finds nothing for, through the nearest words of the names', () => {
    expect(index.searchTerms('legder', 5)[0]).toMatchObject({ match: 'near', term: { termId: 'equity-ledger' } });
    expect(topTerm('reconcilaton')).toBe('reconciliation');
  });

  it('finds nothing rather than noise for text no term fits', () => {
    expect(index.searchTerms('zzqx', 5)).toEqual([]);
  });

  it('ranks the standards a practice must meet, with the sentences that bear on each clause', () => {
    const practice = 'The same analyst prepares the monthly settlement run and approves it.';
    const [first] = index.searchStandards(practice, 5);
    expect(first!.block.sectionId).toBe('GOV-2');
    const clause = first!.clauses.find((c) => c.clauseId === '2')!;
    expect(clause.contradicted).toEqual([{ sentence: practice, phrase: expect.any(String) }]);
    expect(clause.evidence.map((e) => e.sentence)).toContain(practice);
  });

  it('answers the first blocks of an alignment search as its whole ranking has them, findings and clause scores included', () => {
    const practices = [
      'Our AI agent releases payments automatically every Friday; nobody signs off on them, and the same analyst prepares and approves the settlement run.',
      'The equity ledger is reconciled once a year. Refunds are posted before the period closes.',
      '我们的AI助手每周五自动付款，没有人审批；结算批次由同一名分析师编制并审批。股权账簿每年核对一次。',
      // A one-word look-up ('exchange rate' now answers FIN-1 alone: SET-2 came in by the term's Chinese name).
      'rounding',
      // Practices naming terms beside a clause: blocks the terms govern (their signals) compete with blocks found by their clauses.
      'Rate limit and Partner app. Each AI agent must have a named agent supervisor who is accountable for its configuration and scopes. Split tier.',
      'Rate limit and Basis point. A person with a declared interest must not approve a rule version, settlement run or equity ledger entry that changes the amount or share attributable to that interest. Personal data.',
      'Content pack and Acceptance criterion. A comparison must be made between two identified scenario revisions, and its output must state both revision identifiers. Settlement posting.',
      'Exchange rate and Settlement posting. API keys must expire no later than 90 days after issue, and during rotation the old and new keys must not both be valid for more than 7 days. Largest-remainder rounding.',
      // More clauses than a first look at one block's share of them: the block first answered is not the one the whole ranking has.
      'Gross revenue and Partner app and Tie-break and User merge. Each conversion must use a recorded rate with its source, its timestamp and its precision, and that rate must be stored with the settlement run that used it. Drafts prepared by an AI agent must be stored as drafts, labelled as agent-authored, and must have no effect until a human adopts them. Acceptance criterion.',
      'Merge patch and Tie-break and Personal data and Content pack. A key suspected of compromise must be revoked within 1 hour of the suspicion being reported, and the revocation must be recorded in the audit log. Exactly one rule version must govern each settlement period. Remainder.',
    ];
    for (const practice of practices) {
      const every = index.searchStandards(practice, 10_000);
      expect(every.length).toBeGreaterThan(1);
      for (const limit of [1, 2, 3, 5, 8]) expect(index.searchStandards(practice, limit)).toEqual(every.slice(0, limit));
    }
  });

  it('puts first the block a practice is about as a whole, unless the practice contradicts a clause', () => {
    const onboarding =
      "Before a partner's first payout we confirm their bank account with a small test transfer and record their company registration.";
    // Its best single clause is the legal entity's (EQT-2); as a whole it is the partner's onboarding (PRJ-2).
    expect(
      index
        .searchStandards(onboarding, 5)
        .map((hit) => hit.block.sectionId)
        .slice(0, 2),
    ).toEqual(['PRJ-2', 'EQT-2']);
    // Settlement runs are SET-5's words, but the contradicted separation of duties stays first.
    expect(index.searchStandards('The same analyst prepares the monthly settlement run and approves it.', 5)[0]!.block.sectionId).toBe(
      'GOV-2',
    );
  });

  it('ranks an English practice by its own words, not by the Chinese names of the terms it names', () => {
    // Each names registry terms (minor unit, by 'cents'; basis point; settlement period). Their Chinese names, character
    // pairs the practice never wrote, put first the blocks that use those terms most (SET-4, RUL-4, SET-1).
    expect(wholePracticeNames('Our fixed tiers are stored in cents in the rule.')).toBe('en');
    const practices = [
      'Our fixed tiers are stored in cents in the rule.',
      'Partners see their share in basis points and in percent.',
      'Rule changes start at the next settlement period and are never backdated.',
    ];
    expect(practices.map((practice) => index.searchStandards(practice, 5)[0]?.block.sectionId)).toEqual(['RUL-2', 'RUL-3', 'RUL-6']);
    // A Chinese practice, or one that mixes the two, keeps both names.
    expect(wholePracticeNames('固定层级按分存储。')).toBe('both');
    expect(wholePracticeNames('The AI助手 posts the run.')).toBe('both');
  });

  it("counts a block's second clause at half its score: two clauses about the practice outweigh one a little better", () => {
    // Another family's block often has one clause sharing a few of the practice's words; the practice's own
    // standard has a second clause about it too.
    expect(blockRelevance([100, 70], 120)).toBeGreaterThan(blockRelevance([120], 120));
    expect(blockRelevance([120, 30, 10], 120)).toBeCloseTo((120 + 0.5 * 30 + 0.1 * 10) / 120);
    expect(blockRelevance([10, 20], 0)).toBe(0);
  });

  it("takes a block's three best whatever their order, with clauses not yet scored counted at a score given for them", () => {
    expect(blockRelevance([10, 120, 30, 5], 120)).toBeCloseTo((120 + 0.5 * 30 + 0.1 * 10) / 120);
    // Two clauses not yet scored, at most 80 each, beside one scored 50: 80, 80, 50 are the three best.
    expect(blockRelevance([50], 100, 80, 2)).toBeCloseTo((80 + 0.5 * 80 + 0.1 * 50) / 100);
    // Only three count, however many are not yet scored.
    expect(blockRelevance([], 100, 80, 7)).toBeCloseTo((80 + 0.5 * 80 + 0.1 * 80) / 100);
  });

  it('finds where a practice states the opposite of a clause, in English and in Chinese', () => {
    expect(finding('Our AI agent releases payments automatically; nobody signs off on them.', 'FIN-2#2')).toBe('contradicted');
    expect(finding('我们的AI助手每周自动向合作方付款，没有人审批付款指令。', 'FIN-2#2')).toBe('contradicted');
    expect(finding('Our agents have no named supervisor; whoever is on shift looks at them.', 'AGT-1#3')).toBe('contradicted');
    expect(finding('结算批次由同一名财务人员编制并审批。', 'GOV-2#2')).toBe('contradicted');
  });

  it('counts a contradiction only in a sentence about the clause, and none where the act waits for a person', () => {
    expect(finding('Everyone in the company can open and change the split rules.', 'SEC-1#1')).toBe('contradicted');
    const rounding = 'Everyone first gets the whole-cent floor of their share, then the leftover cents go to the biggest fractions.';
    expect(finding(rounding, 'SEC-1#1')).not.toBe('contradicted');
    expect(finding('Our AI agent releases payments automatically; nobody signs off on them.', 'AGT-1#2')).toBe('contradicted');
    expect(finding('Payments drafted by our AI agent stay on hold until the finance controller releases them.', 'AGT-1#2')).not.toBe(
      'contradicted',
    );
  });

  it('takes a practice that meets a clause as stating it, and a negated or contradicting sentence never', () => {
    expect(finding('Every payment instruction is approved by our finance controller before release.', 'FIN-2#2')).toBe('stated');
    expect(finding('We never let the AI agent approve anything.', 'AGT-1#2')).not.toBe('contradicted');
    expect(finding('Payments are not approved by the finance controller.', 'FIN-2#2')).not.toBe('stated');
    expect(finding('每笔付款指令在放行前都由财务主管审批，智能体只负责起草。', 'GOV-1#3')).not.toBe('contradicted');
  });

  it('finds a sentence that departs from the clause it is most about in everyday words, and not one that keeps a forbidding clause', () => {
    const departures = (practice: string, sectionId: string) =>
      index
        .searchStandards(practice, 10)
        .find((hit) => hit.block.sectionId === sectionId)
        ?.clauses.flatMap((c) => c.departures.map((departure) => ({ clauseId: c.clauseId, ...departure })));
    expect(departures('The API keys we give partners never expire.', 'SEC-2')).toEqual([
      { clauseId: '3', sentence: 'The API keys we give partners never expire.', cue: 'never' },
    ]);
    expect(departures('我们发给合作方的API密钥一直没有到期。', 'SEC-2')).toEqual([
      { clauseId: expect.any(String), sentence: '我们发给合作方的API密钥一直没有到期。', cue: '没有' },
    ]);
    expect(departures('Drafts written by the agent have no effect until a person adopts them.', 'AGT-2')).toEqual([]);
  });

  it('recommends the role whose responsibilities and tasks a described need matches', () => {
    expect(index.searchRoles('Someone to sign off the monthly payout run before it is posted', 3)[0]!.role.role).toBe(
      'settlement-approver',
    );
    expect(index.searchRoles('监督AI智能体并审核它起草的内容', 3)[0]!.role.role).toBe('agent-supervisor');
  });

  it('weighs the registry names of the terms a role description names below its own words', () => {
    // "partner company" names the legal entity; what the person does (integrating, the API, credentials) decides.
    const description = 'Developer at a partner company integrating with the platform API and storing its credentials';
    expect(index.searchRoles(description, 3)[0]!.role.role).toBe('partner-developer');
  });
});

describe('an alignment search over many blocks that say the same', () => {
  it('answers its first blocks as its whole ranking has them when a hundred blocks score alike', async () => {
    // Every block has three clauses of the same text: the blocks tie, their order is their ids', the first clauses
    // searched for end inside a block, whose other clauses are then scored alone.
    const loaded = await loadPack(samplePackDirectory());
    if (!loaded.ok) throw new Error('the sample pack does not load');
    const source = sampleSearchSource(loaded.pack);
    const [first] = (await source.standards[Symbol.asyncIterator]().next()).value as IndexedStandard[];
    const { block, conditions } = first!;
    const clause = block.clauses[0]!;
    const alike: IndexedStandard[] = Array.from({ length: 120 }, (_, n) => ({
      block: {
        ...block,
        sectionId: `DUP-${String(n).padStart(3, '0')}`,
        title: { en: `Block ${n}`, 'zh-Hans': `块 ${n}` },
        summary: { en: '', 'zh-Hans': '' },
        tags: [],
        clauses: [1, 2, 3].map((k) => ({ ...clause, clauseId: String(k) })),
      },
      conditions: new Map([...conditions].filter(([clauseId]) => clauseId === clause.clauseId)),
    }));
    const duplicated = await RegistrySearchIndex.build({
      ...sampleSearchSource(loaded.pack),
      standards: (async function* () {
        yield alike;
      })(),
    });
    const every = duplicated.searchStandards(clause.text.en, 10_000);
    expect(every.length).toBeGreaterThan(1);
    for (const limit of [1, 2, 3]) expect(duplicated.searchStandards(clause.text.en, limit)).toEqual(every.slice(0, limit));
  });
});

describe('an alignment search over clauses given the same phrases', () => {
  it('finds each such clause stated and contradicted as it would with phrases of its own', async () => {
    // The sample's blocks and three copies of each block with conditions, under other ids: a copy's clauses have its
    // block's phrases, read once for all of them; in the second index each copy's phrases end in spaces of their own,
    // which compile alike but are other lists, so each clause's are read on their own.
    const loaded = await loadPack(samplePackDirectory());
    if (!loaded.ok) throw new Error('the sample pack does not load');
    const standards = (await sampleSearchSource(loaded.pack).standards[Symbol.asyncIterator]().next()).value as IndexedStandard[];
    const withCopies = (spacesOfCopy: (copy: number) => string) =>
      RegistrySearchIndex.build({
        ...sampleSearchSource(loaded.pack),
        standards: (async function* () {
          yield [
            ...standards,
            ...standards
              .filter(({ conditions }) => conditions.size > 0)
              .flatMap(({ block, conditions }) =>
                [1, 2, 3].map((copy): IndexedStandard => ({
                  block: { ...block, sectionId: `${block.sectionId}-COPY-${copy}` },
                  conditions: new Map(
                    [...conditions].map(([clauseId, { requires, contradictedBy }]) => [
                      clauseId,
                      {
                        requires: requires.map((phrase) => `${phrase}${spacesOfCopy(copy)}`),
                        contradictedBy: contradictedBy.map((phrase) => `${phrase}${spacesOfCopy(copy)}`),
                      },
                    ]),
                  ),
                })),
              ),
          ].sort((a, b) => a.block.sectionId.localeCompare(b.block.sectionId));
        })(),
      });
    const shared = await withCopies(() => '');
    const own = await withCopies((copy) => ' '.repeat(copy));
    const practices = [
      'Our AI agent releases payments automatically; nobody signs off on them.',
      'Every payment instruction is approved by our finance controller before release.',
      '我们的AI助手每周自动向合作方付款，没有人审批付款指令。',
      '结算批次由同一名财务人员编制并审批。',
      'Everyone in the company can open and change the split rules.',
    ];
    let found = 0;
    for (const practice of practices) {
      const hits = shared.searchStandards(practice, 10_000);
      // The phrase a finding names as the pack gave it, without the copy's spaces.
      const phrasesTrimmed = (key: string, value: unknown) => (key === 'phrase' && typeof value === 'string' ? value.trim() : value);
      expect(JSON.parse(JSON.stringify(own.searchStandards(practice, 10_000), phrasesTrimmed))).toEqual(hits);
      for (const limit of [1, 3, 5]) expect(shared.searchStandards(practice, limit)).toEqual(hits.slice(0, limit));
      found += hits
        .filter((hit) => hit.block.sectionId.includes('-COPY-'))
        .flatMap((hit) => hit.clauses)
        .filter((clause) => clause.stated.length + clause.contradicted.length > 0).length;
    }
    // Copies' clauses are found stated and contradicted: the equalities above are not of clauses found neither.
    expect(found).toBeGreaterThan(10);
  });
});

describe('an alignment search whose best block none of the first clauses searched for is in', () => {
  // Three sentences of six made-up words each; blocks of one clause saying one sentence whole score the most, and
  // a block of three clauses of two words of each sentence scores a little less for each but more for the three.
  const sentences = ['zor', 'vel', 'taz'].map((stem) => [...'bcdfgh'].map((letter) => `${stem}${letter}ax`));
  const practice = sentences.map((words) => `${words.join(' ')}.`).join(' ');
  const threeClauses = sentences.map((words) => words.slice(0, 2).join(' ')).join(' ');
  const everyWord = sentences.flat();
  /** A block of nine clauses of two words each: it holds all eighteen, so the ranking of whole blocks puts it first. */
  const everyWordTwoByTwo = everyWord.flatMap((word, i) => (i % 2 === 0 ? [`${word} ${everyWord[i + 1]}`] : []));

  /** The index of these blocks (section id and clause texts, in both languages alike) and the sample pack's terms. */
  async function indexOf(blocks: [string, string[]][]): Promise<RegistrySearchIndex> {
    const loaded = await loadPack(samplePackDirectory());
    if (!loaded.ok) throw new Error('the sample pack does not load');
    const [first] = (await sampleSearchSource(loaded.pack).standards[Symbol.asyncIterator]().next()).value as IndexedStandard[];
    const template = first!.block;
    const standards = blocks
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([sectionId, texts]): IndexedStandard => ({
        block: {
          ...template,
          sectionId,
          title: { en: 'Block', 'zh-Hans': '块' },
          summary: { en: '', 'zh-Hans': '' },
          tags: [],
          clauses: texts.map((text, k) => ({ ...template.clauses[0]!, clauseId: String(k + 1), text: { en: text, 'zh-Hans': text } })),
        },
        conditions: new Map(),
      }));
    return RegistrySearchIndex.build({
      ...sampleSearchSource(loaded.pack),
      standards: (async function* () {
        yield standards;
      })(),
    });
  }
  const oneClauseBlocks = (sentence: number, count: number): [string, string[]][] =>
    Array.from({ length: count }, (_, n) => [`ONE-${sentence}${String(n).padStart(2, '0')}`, [sentences[sentence]!.join(' ')]]);

  it('searches the whole practice again for more clauses, and answers the block its whole ranking has first', async () => {
    // 72 blocks of one clause: the first 64 clauses searched for (a limit of one block) are theirs. No sentence finds the
    // block of three clauses (two of its six words), it governs no term the practice names, and the ranking of whole
    // blocks puts another first: nothing but a second search of the whole practice finds it.
    const index = await indexOf([
      ...[0, 1, 2].flatMap((sentence) => oneClauseBlocks(sentence, 24)),
      ['THREE-1', [threeClauses, threeClauses, threeClauses]],
      ['WORDS-1', everyWordTwoByTwo],
    ]);
    const every = index.searchStandards(practice, 10_000);
    const three = every[0]!;
    expect(three.block.sectionId).toBe('THREE-1');
    const oneClause = every.filter((hit) => hit.block.sectionId.startsWith('ONE-'));
    expect(oneClause).toHaveLength(72);
    // Each of its clauses scores below the 72 others (so none is among the first 64 found), the three together above.
    expect(Math.max(...three.clauses.map((clause) => clause.score))).toBeLessThan(
      Math.min(...oneClause.map((hit) => hit.clauses[0]!.score)),
    );
    expect(three.clauses.every((clause) => clause.evidence.length === 0)).toBe(true);
    expect(index.searchStandards(practice, 1)).toEqual(every.slice(0, 1));
  });

  it('scores alone the clauses of a block none of whose clauses were found when its signals may put it first', async () => {
    // The block of three clauses is SEC-1, which governs the terms the last sentence names: it has a signal, so it is
    // in the loop from the start, with none of its clauses found. TOP-1 (three clauses of a whole sentence) scores
    // more than three clauses of the 64th score could, so the practice is not searched again: only scoring SEC-1's
    // clauses alone, because they may score up to the 64th, shows that it comes first.
    const index = await indexOf([
      ...[0, 1, 2].flatMap((sentence) => oneClauseBlocks(sentence, sentence === 1 ? 21 : 24)),
      ['TOP-1', [1, 2, 3].map(() => sentences[1]!.join(' '))],
      ['SEC-1', [threeClauses, threeClauses, threeClauses]],
      // Governs three terms the practice names, and says nothing of the practice: its clauses, scored alone, score nothing.
      ['SET-4', ['quopax', 'quorax', 'quosax']],
      ['WORDS-1', everyWordTwoByTwo],
    ]);
    const naming = `${practice} Waitlist, scope, rate limit. Tie-break, remainder and largest-remainder rounding.`;
    const every = index.searchStandards(naming, 10_000);
    expect(every.slice(0, 2).map((hit) => [hit.block.sectionId, hit.terms])).toEqual([
      ['SEC-1', ['rate-limit', 'scope', 'waitlist']],
      ['TOP-1', []],
    ]);
    const top = every[1]!;
    expect(Math.max(...every[0]!.clauses.map((clause) => clause.score))).toBeLessThan(
      Math.min(...top.clauses.map((clause) => clause.score)),
    );
    expect(index.searchStandards(naming, 1)).toEqual(every.slice(0, 1));
  });
});

describe('an alignment search over blocks that many sentences vote for and many cues contradict', () => {
  it('answers its first blocks as its whole ranking has them, the signalled blocks none of whose clauses were found included', async () => {
    // Hundreds of blocks of made-up words, some common, many clauses contradicted by "nobody" and a word of theirs: the
    // practices' sentences vote for and contradict more blocks than the first clauses searched for are in.
    let seed = 30;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * below);
    };
    const words = [...'bcdfgh'].flatMap((letter) => [`${letter}orax`, `${letter}elix`]);
    /** A word, the first ones far more often: a few words are in most clauses, most in a few. */
    const word = () => words[Math.min(next(words.length), next(words.length), next(words.length))]!;
    const wordsOf = (least: number, most: number) => Array.from({ length: least + next(most - least + 1) }, word);
    const loaded = await loadPack(samplePackDirectory());
    if (!loaded.ok) throw new Error('the sample pack does not load');
    const [first] = (await sampleSearchSource(loaded.pack).standards[Symbol.asyncIterator]().next()).value as IndexedStandard[];
    const template = first!.block;
    const standards = Array.from({ length: 400 }, (_, n): IndexedStandard => {
      const texts = Array.from({ length: 1 + next(3) }, () => wordsOf(2, 6));
      return {
        block: {
          ...template,
          sectionId: `GEN-${String(n).padStart(3, '0')}`,
          title: { en: 'Block', 'zh-Hans': '块' },
          summary: { en: '', 'zh-Hans': '' },
          tags: [],
          clauses: texts.map((text, k) => ({
            ...template.clauses[0]!,
            clauseId: String(k + 1),
            text: { en: text.join(' '), 'zh-Hans': text.join(' ') },
          })),
        },
        conditions: new Map(
          texts.flatMap((text, k) =>
            next(2) === 0 ? [[String(k + 1), { requires: [`${text[0]} ${text[1]}`], contradictedBy: [`nobody|never ${text[0]}`] }]] : [],
          ),
        ),
      };
    });
    const index = await RegistrySearchIndex.build({
      ...sampleSearchSource(loaded.pack),
      standards: (async function* () {
        yield standards;
      })(),
    });
    for (let practice = 0; practice < 80; practice++) {
      const sentences = Array.from({ length: 1 + next(3) }, () => `${next(2) === 0 ? 'Nobody ' : ''}${wordsOf(2, 6).join(' ')}.`);
      const text = sentences.join(' ');
      const every = index.searchStandards(text, 10_000);
      for (const limit of [1, 2, 3]) expect(index.searchStandards(text, limit)).toEqual(every.slice(0, limit));
    }
  });
});
