import { loadPack, samplePackDirectory } from '@stdreg/registry-content';
import { foldText, isHan, sentencesOf } from './search-text';
import { TermNameIndex, type NamedTerm } from './term-names';

/** What the index must answer: every name tested against the text, as the search index did before it had one. */
function namedByTestingEveryName(terms: NamedTerm[], text: string): string[] {
  const folded = foldText(text);
  return terms
    .filter((term) =>
      [...term.names, ...term.otherNames]
        .map((name) => foldText(name).trim())
        .filter((name) => name.length >= 2)
        .some((name) =>
          isHan(name)
            ? folded.includes(name)
            : new RegExp(`(?<![\\p{L}\\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u').test(folded),
        ),
    )
    .map((term) => term.termId);
}

describe('the index of term names', () => {
  const index = new TermNameIndex([
    { termId: 'basis-point', names: ['Basis point', '基点'], otherNames: ['bps'] },
    { termId: 'point-of-sale', names: ['Point of sale'], otherNames: ['POS'] },
    { termId: 'ai-agent', names: ['AI agent', '智能体'], otherNames: ['Agent'] },
    { termId: 'cafe-terms', names: ['Café terms'], otherNames: ['x', '款'] },
  ]);

  it('finds a Latin name as whole words only, in any case and with or without accents', () => {
    expect(index.namedIn('The fee is 25 Basis Point.')).toEqual(['basis-point']);
    expect(index.namedIn('The fee is 25 basis points.')).toEqual([]);
    expect(index.namedIn('Cafe terms apply at the point of sale; fees in BPS.')).toEqual(['basis-point', 'point-of-sale', 'cafe-terms']);
    expect(index.namedIn('A one-letter name (x) is never looked for, nor 款.')).toEqual([]);
  });

  it('finds a Chinese name anywhere in a text, and reports each term once, in the order given', () => {
    expect(index.namedIn('我们的智能体按基点收费，由智能体审批。')).toEqual(['basis-point', 'ai-agent']);
    expect(index.namedIn('The agent, an AI agent, drafts.')).toEqual(['ai-agent']);
  });

  it('says which terms a whole text is a name of, their own name before another', () => {
    expect(index.calledBy(' BPS ')).toEqual(new Map([['basis-point', 'other']]));
    expect(index.calledBy('ai Agent')).toEqual(new Map([['ai-agent', 'own']]));
    expect(index.calledBy('款')).toEqual(new Map([['cafe-terms', 'other']]));
    expect(index.calledBy('basis')).toEqual(new Map());
  });

  it('names the same terms as testing every name of the sample pack, for every sentence of its standards and terms', async () => {
    const loaded = await loadPack(samplePackDirectory());
    if (!loaded.ok) throw new Error('the sample pack does not load');
    const terms = loaded.pack.terms.map((term) => ({
      termId: term.termId,
      names: [term.term.en, term.term['zh-Hans']],
      otherNames: [term.synonyms, term.designations ?? { en: [], 'zh-Hans': [] }].flatMap((names) => [names.en, names['zh-Hans']].flat()),
    }));
    const sampleIndex = new TermNameIndex(terms);
    const texts = [
      ...loaded.pack.standards.flatMap((block) => block.clauses.flatMap((clause) => [clause.text.en, clause.text['zh-Hans']])),
      ...loaded.pack.terms.flatMap((term) => [term.definition.en, term.definition['zh-Hans']]),
    ];
    const sentences = texts.flatMap(sentencesOf);
    let named = 0;
    for (const sentence of sentences) {
      const expected = namedByTestingEveryName(terms, sentence);
      expect({ sentence, named: sampleIndex.namedIn(sentence) }).toEqual({ sentence, named: expected });
      named += expected.length;
    }
    expect(named).toBeGreaterThan(sentences.length);
  });
});
