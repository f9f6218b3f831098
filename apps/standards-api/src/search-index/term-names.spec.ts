import fc from 'fast-check';
import { loadPack, samplePackDirectory } from '@stdreg/registry-content';
import { sentencesOf } from '@stdreg/contracts';
import { foldText, isHan } from './search-text';
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

/** What calledBy must answer: every name of every term compared with the whole text, an own name first. */
function calledByTestingEveryName(terms: NamedTerm[], text: string): [string, 'own' | 'other'][] {
  const folded = foldText(text).trim();
  const fold = (names: string[]) => names.map((name) => foldText(name).trim()).filter((name) => name.length > 0);
  return terms
    .map((term): [string, 'own' | 'other' | null] => [
      term.termId,
      fold(term.names).includes(folded) ? 'own' : fold(term.otherNames).includes(folded) ? 'other' : null,
    ])
    .filter((called): called is [string, 'own' | 'other'] => called[1] !== null)
    .sort(([a], [b]) => a.localeCompare(b));
}

// Words that share letters, accents and case, Chinese characters that pair up, and marks without a letter,
// so that names share their rarest word, their first two characters, and fall under no key at all.
const NAME_WORD = fc.constantFrom(
  'pay',
  'Pay',
  'payment',
  'PAYMENT',
  'café',
  'cafe',
  'x',
  '42',
  'ledger',
  'four-eyes',
  '付',
  '付款',
  '款',
  '审批',
  '批',
  '--',
  '·',
);
const name = fc
  .array(NAME_WORD, { minLength: 1, maxLength: 3 })
  .chain((words) => fc.constantFrom(' ', '', '-').map((glue) => words.join(glue)));
const namedTerms = fc
  .array(fc.record({ names: fc.array(name, { maxLength: 2 }), otherNames: fc.array(name, { maxLength: 3 }) }), { maxLength: 12 })
  .map((terms) => terms.map((term, i): NamedTerm => ({ termId: `term-${i}`, ...term })));
const textOfNames = fc
  .array(fc.oneof(name, fc.constantFrom(' ', ', ', '。', 'payments', 'xpay')), { maxLength: 6 })
  .map((parts) => parts.join(' '));

describe('the index of term names', () => {
  it('names the terms that testing every name names, and calls a text what testing every name calls it (property)', () => {
    fc.assert(
      fc.property(namedTerms, fc.array(textOfNames, { minLength: 1, maxLength: 5 }), (terms, texts) => {
        const index = new TermNameIndex(terms);
        for (const text of [...texts, ...terms.flatMap((term) => [...term.names, ...term.otherNames])]) {
          expect(index.namedIn(text)).toEqual(namedByTestingEveryName(terms, text));
          expect([...index.calledBy(text)].sort(([a], [b]) => a.localeCompare(b))).toEqual(calledByTestingEveryName(terms, text));
        }
      }),
      { numRuns: 300 },
    );
  });

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

  it('gives every name it keeps, folded and trimmed', () => {
    expect([...index.foldedNames()].sort()).toEqual([
      'agent',
      'ai agent',
      'basis point',
      'bps',
      'cafe terms',
      'point of sale',
      'pos',
      'x',
      '基点',
      '智能体',
      '款',
    ]);
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
