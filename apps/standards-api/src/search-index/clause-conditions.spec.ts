import fc from 'fast-check';
import { loadPack, samplePackDirectory, type ContentPack } from '@stdreg/registry-content';
import { CompiledConditions, ConditionsByCue, PhraseCompiler, PracticeTexts, type ClauseConditions } from './clause-conditions';

let pack: ContentPack;
let conditioned: [string, ClauseConditions][];

beforeAll(async () => {
  const loaded = await loadPack(samplePackDirectory());
  if (!loaded.ok) throw new Error('the sample pack does not load');
  pack = loaded.pack;
  conditioned = pack.standards.flatMap((block) =>
    block.clauses.flatMap((clause): [string, ClauseConditions][] =>
      clause.conditions
        ? [
            [
              `${block.sectionId}@${block.version}#${clause.clauseId}`,
              {
                requires: [...clause.conditions.requires.en, ...clause.conditions.requires['zh-Hans']],
                contradictedBy: [...clause.conditions.contradictedBy.en, ...clause.conditions.contradictedBy['zh-Hans']],
              },
            ],
          ]
        : [],
    ),
  );
  // Phrases shaped as the generated pack's (tools/scale/registry-pack-generator.mjs): a subject and a cue.
  conditioned.push(
    ['generated#1', { requires: ['payout approv', '付款 审批'], contradictedBy: ['nobody|without|never approv', '没有|未经|无人 审批'] }],
    [
      'generated#2',
      { requires: ['ledger reconcil', '账簿 核对'], contradictedBy: ['nobody|without|never reconcil', '没有|未经|无人 核对'] },
    ],
    // The same phrases against as generated#1 (clauses share lists of phrases at full size).
    ['generated#3', { requires: ['payout releas', '付款 放行'], contradictedBy: ['nobody|without|never approv', '没有|未经|无人 审批'] }],
    // The same required phrases as generated#1, other phrases against.
    ['generated#4', { requires: ['payout approv', '付款 审批'], contradictedBy: ['nobody|without|never releas', '没有|未经|无人 放行'] }],
  );
});

/** Words a practice is written in: the alternatives of the pack's cues (some inflected), negations, limits, fillers. */
function practiceWords(): string[] {
  const alternatives = conditioned.flatMap(([, conditions]) =>
    [...conditions.requires, ...conditions.contradictedBy].flatMap((phrase) => phrase.split(/[\s|]+/).map((a) => a.replace(/_/g, ' '))),
  );
  const names = pack.terms.slice(0, 20).flatMap((term) => [term.term.en, term.term['zh-Hans']]);
  return [
    ...alternatives.filter((alternative) => !alternative.startsWith('@')),
    ...alternatives.map((alternative) => `${alternative}es`),
    ...alternatives.map((alternative) => `pre-${alternative}`),
    ...names,
    ...['no', 'not', 'nobody', 'never', 'without', 'only', 'Approves', 'Sign-Off', 'AI', 'agent', 'the', 'every', 'Friday'],
    ...['没有', '未经', '无人', '不', '只', '我们的', '每周', '自动', '助手'],
    ...[',', ' but ', '，', '：', '; '],
  ];
}

describe('the conditions filed by cue', () => {
  it('tries a sentence on every clause whose conditions it states or contradicts, and finds the same', () => {
    const compiled = conditioned.map(([id, conditions]): [string, CompiledConditions] => [id, new CompiledConditions(conditions, namesOf)]);
    const compiler = new PhraseCompiler(namesOf);
    const compiledTogether = conditioned.map(([id, conditions]): [string, CompiledConditions] => [
      id,
      new CompiledConditions(conditions, compiler),
    ]);
    const byCue = new ConditionsByCue(compiled);
    const word = fc.constantFrom(...practiceWords());
    // A phrase's cues, one alternative of each, between other words: a sentence that states or contradicts it, or nearly.
    const phrases = conditioned.flatMap(([, conditions]) => [...conditions.requires, ...conditions.contradictedBy]);
    const phraseWords = fc.tuple(fc.constantFrom(...phrases), fc.nat()).map(([phrase, pick]) =>
      phrase
        .trim()
        .split(/\s+/)
        .map((cue) => {
          const alternatives = cue.split('|').filter((alternative) => !alternative.startsWith('@'));
          return (alternatives[pick % Math.max(1, alternatives.length)] ?? 'AI agent').replace(/_/g, ' ');
        }),
    );
    const sentence = fc
      .tuple(
        fc.array(word, { maxLength: 3 }),
        fc.oneof(phraseWords, fc.array(word, { minLength: 1, maxLength: 6 })),
        fc.array(word, { maxLength: 3 }),
      )
      .chain(([before, middle, after]) => fc.constantFrom(' ', '').map((space) => [...before, ...middle, ...after].join(space)));
    let found = 0;
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 4 }), (sentences) => {
        const candidates = sentences.map((s) => byCue.conditionsFor(s));
        // One practice's texts, shared by every clause tried, compiled by one compiler (as an alignment search and the
        // index share them): what it remembers of one clause's phrases and cues answers for another's as a fresh one would.
        const shared = new PracticeTexts();
        compiled.forEach(([, conditions], k) => {
          const bearing = sentences.filter((_, i) => candidates[i]!.has(conditions));
          expect(conditions.contradictions(bearing)).toEqual(conditions.contradictions(sentences));
          expect(conditions.statements(bearing)).toEqual(conditions.statements(sentences));
          const sharing = compiledTogether[k]![1];
          expect(sharing.contradictions(bearing, shared)).toEqual(conditions.contradictions(sentences));
          expect(sharing.statements(bearing, shared)).toEqual(conditions.statements(sentences));
          found += conditions.contradictions(sentences).length + conditions.statements(sentences).length;
        });
      }),
      { numRuns: 300 },
    );
    // The sentences generated state or contradict clauses often: the equalities above are not of empty lists.
    expect(found).toBeGreaterThan(200);
  });

  it('files the clauses given the same phrases once, and tries each on the sentences it would be tried on alone', () => {
    // Clauses copied 0 to 3 times under other ids (a generated pack repeats its phrases over thousands of clauses).
    const copied = conditioned.flatMap(([id, conditions], k): [string, ClauseConditions][] => [
      [id, conditions],
      ...Array.from({ length: k % 4 }, (_, copy): [string, ClauseConditions] => [
        `${id}~${copy}`,
        { requires: [...conditions.requires], contradictedBy: [...conditions.contradictedBy] },
      ]),
    ]);
    const compiler = new PhraseCompiler(namesOf);
    const shared = copied.map(([id, conditions]): [string, CompiledConditions] => [id, compiler.conditionsOf(conditions)]);
    const alone = new ConditionsByCue(copied.map(([id, conditions]) => [id, new CompiledConditions(conditions, namesOf)]));
    const together = new ConditionsByCue(shared);
    const compiledOf = new Map(shared);
    // One object for the same phrases only: generated#4 shares generated#1's requirements, generated#3 its phrases against.
    expect(compiledOf.get('generated#1')).not.toBe(compiledOf.get('generated#3'));
    expect(compiledOf.get('generated#1')).not.toBe(compiledOf.get('generated#4'));
    expect(new Set(shared.map(([, compiled]) => compiled)).size).toBe(new Set(copied.map(([, c]) => JSON.stringify(c))).size);
    const clausesFor = (byCue: ConditionsByCue, sentence: string) =>
      [...byCue.conditionsFor(sentence)].flatMap((compiled) => byCue.clausesWith(compiled)).sort();
    const sentence = fc
      .array(fc.constantFrom(...practiceWords()), { minLength: 1, maxLength: 8 })
      .chain((words) => fc.constantFrom(' ', '').map((space) => words.join(space)));
    let tried = 0;
    fc.assert(
      fc.property(sentence, (text) => {
        const clauses = clausesFor(together, text);
        expect(clauses).toEqual(clausesFor(alone, text));
        tried += clauses.length;
      }),
      { numRuns: 300 },
    );
    expect(tried).toBeGreaterThan(1000);
  });

  it('tries a sentence on the clauses of its cues only', () => {
    const compiled = conditioned.map(([id, conditions]): [string, CompiledConditions] => [id, new CompiledConditions(conditions, namesOf)]);
    const byCue = new ConditionsByCue(compiled);
    const clausesFor = (sentence: string) => [...byCue.conditionsFor(sentence)].flatMap((conditions) => byCue.clausesWith(conditions));
    expect(clausesFor('The equity ledger is reconciled once a year.')).toContain('generated#2');
    expect(clausesFor('The equity ledger is reconciled once a year.')).not.toContain('generated#1');
    expect(clausesFor('Lunch is at noon.').length).toBeLessThan(compiled.length / 4);
  });
});

describe('what a sentence states', () => {
  const payoutApproval = () => new CompiledConditions(Object.fromEntries(conditioned)['generated#1']!, namesOf);

  it('is never a requirement met when the sentence holds a contracted negation, in either apostrophe', () => {
    const conditions = payoutApproval();
    expect(conditions.statements(['Every payout is approved by finance.']).map((match) => match.sentence)).toEqual([
      'Every payout is approved by finance.',
    ]);
    for (const denied of [
      "Payouts aren't approved by finance.",
      'Payouts aren’t approved by finance.',
      "We don't approve payouts.",
      "Finance can't approve payouts in time.",
      "A payout won't be approved by anyone.",
    ]) {
      expect({ denied, statements: conditions.statements([denied]) }).toEqual({ denied, statements: [] });
    }
  });

  it('does not read a contracted negation as stating the opposite either', () => {
    expect(payoutApproval().contradictions(["Payouts aren't approved by finance."])).toEqual([]);
  });
});

describe('a sentence that makes the act wait', () => {
  const payoutApproval = () => new CompiledConditions(Object.fromEntries(conditioned)['generated#1']!, namesOf);

  it.each([
    ['what is missing before the act goes ahead (X后才)', '没有审批的付款系统拒绝放行，补上审批后才付款。'],
    ['the only case in which it goes ahead (只有X才)', '只有审批过的付款才放行，没有审批的一律退回。'],
    ['what is missing until a person acts', 'Nobody can release a payout until finance has approved it.'],
  ])('states the control, not the opposite: %s', (_, sentence) => {
    expect(payoutApproval().contradictions([sentence])).toEqual([]);
  });

  it('is read as such only where it says so', () => {
    expect(
      payoutApproval()
        .contradictions(['付款没有审批就放行了。'])
        .map((match) => match.sentence),
    ).toEqual(['付款没有审批就放行了。']);
  });
});

function namesOf(termId: string): string[] {
  const term = pack.terms.find((t) => t.termId === termId);
  return term
    ? [term.term, term.synonyms, term.designations ?? { en: [], 'zh-Hans': [] }].flatMap((names) => [names.en, names['zh-Hans']].flat())
    : [];
}
