import fc from 'fast-check';
import { loadPack, samplePackDirectory } from '@stdreg/registry-content';
import { sentencesOf } from '@stdreg/contracts';
import { foldText, HYPHENATED, searchTerms, searchTermsOfAll } from './search-text';

describe('search terms of many texts at once', () => {
  it("are each text's own search terms, for every text of the sample pack", async () => {
    const loaded = await loadPack(samplePackDirectory());
    if (!loaded.ok) throw new Error('the sample pack does not load');
    const { terms, standards, roles } = loaded.pack;
    const texts = [
      ...terms.flatMap((term) => [term.term, term.definition].flatMap((text) => [text.en, text['zh-Hans']])),
      ...terms.flatMap((term) => [...term.synonyms.en, ...term.synonyms['zh-Hans']]),
      ...standards.flatMap((block) => block.clauses.flatMap((clause) => [clause.text.en, clause.text['zh-Hans']])),
      ...roles.flatMap((role) => [role.description.en, role.description['zh-Hans']]),
    ];
    expect(texts.filter((text) => /\p{Script=Han}/u.test(text)).length).toBeGreaterThan(100);
    expect(searchTermsOfAll(texts)).toEqual(texts.map(searchTerms));
  });

  it("are each text's own search terms, for generated texts of Chinese runs, Latin words and punctuation", () => {
    const piece = fc.constantFrom(
      ...['结算', '批次', '审批', '付款', '的', '我们', '没有', '人', '自动', '助手', '股权', '账簿', '核对', '一次', '每年'],
      ...['AI', 'agent', 'four-eyes', 'top line', '2024', 'Ｆｕｌｌ', 'café'],
      ...[' ', '\n', '，', '。', ', ', '; ', '、', '“', '”', '-', ''],
    );
    const text = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 40 }), (texts) => {
        expect(searchTermsOfAll(texts)).toEqual(texts.map(searchTerms));
      }),
      { numRuns: 300 },
    );
  });
});

describe('folding a text', () => {
  it('reads traditional Chinese as the simplified the registry writes, phrases included', () => {
    expect(foldText('審計軌跡')).toBe('审计轨迹');
    expect(foldText('資料庫的軟體')).toBe('数据库的软件');
    expect(searchTerms('結算週期')).toEqual(searchTerms('结算周期'));
  });

  it('leaves simplified Chinese and Latin text as they are, but for case, width and accents', () => {
    expect(foldText('结算批次由同一人编制并审批')).toBe('结算批次由同一人编制并审批');
    expect(foldText('ＡＰＩ Café')).toBe('api cafe');
  });
});

describe('invisible characters in a text', () => {
  // Unicode's default-ignorable code points that copying from web pages and PDFs leaves inside words.
  it.each([
    ['soft hyphen', '\u00ad'],
    ['zero-width space', '\u200b'],
    ['zero-width non-joiner', '\u200c'],
    ['zero-width joiner', '\u200d'],
    ['word joiner', '\u2060'],
    ['byte-order mark', '\ufeff'],
  ])('leave the words around a %s whole, in both languages', (_name, invisible) => {
    expect(searchTerms(`settle${invisible}ment basis`)).toEqual(searchTerms('settlement basis'));
    expect(searchTerms(`结算${invisible}基数`)).toEqual(searchTerms('结算基数'));
    expect(foldText(`${invisible}Ｂａｓｉｓ${invisible}`)).toBe('basis');
  });
});

describe('the sentences of a text', () => {
  it('end at a full stop, but not at a decimal point (33.333 %, 2.5 days, version 2.0)', () => {
    expect(sentencesOf('三个创始人各33.333%，这样最公平。下一句。')).toEqual(['三个创始人各33.333%，这样最公平。', '下一句。']);
    expect(sentencesOf('Keys expire after 2.5 days. Rule 2.0 applies; the rest waits.')).toEqual([
      'Keys expire after 2.5 days.',
      'Rule 2.0 applies;',
      'the rest waits.',
    ]);
  });
});

describe('hyphenated compounds in a long text', () => {
  it('are the matches of the pattern tried at every position, found only where a run starts', () => {
    const text = fc.array(fc.constantFrom('a', 'b', '1', '-', ' ', 'é', '中'), { maxLength: 80 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (written) => {
        expect(written.match(HYPHENATED)).toEqual(written.match(/[a-z0-9]+(?:-[a-z0-9]+)+/g));
      }),
      { numRuns: 3000 },
    );
  });
});
