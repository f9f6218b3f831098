import { departureCue } from './departures';

const obliges = { en: 'API keys must expire no later than 90 days after issue.', 'zh-Hans': 'API 密钥必须在签发后 90 天内到期。' };
const forbids = { en: 'A released payment instruction must not be modified.', 'zh-Hans': '已放行的付款指令不得修改。' };

describe('what a sentence says against the clause it is most about', () => {
  it.each([
    ['a negation of what a clause obliges', 'Our partner keys never expire.', obliges, 'never'],
    ['a negation of what a clause obliges, in Chinese', '合作方的密钥从来没有设过期限。', obliges, '没有'],
    [
      'a concession, whatever the clause says',
      'We edit the released instruction anyway, even though the bank complains.',
      forbids,
      'anyway',
    ],
    ['a concession, in Chinese', '尽管规则没有写，我们还是照样修改。', forbids, '尽管'],
    ['a negation contracted into its verb', "Partner keys don't expire.", obliges, "don't"],
    ['a contracted negation in either apostrophe', 'Our keys haven’t expired in years.', obliges, 'haven’t'],
    ['an act done loosely', 'Keys expire after roughly a quarter, give or take.', obliges, 'roughly'],
    ['an act done after the fact, in Chinese', '密钥到期后事后再补登记。', obliges, '事后'],
    ['a concession in a sentence that makes the act wait', '尽管规则要求先审批，修改也要等到月底才会生效。', forbids, '尽管'],
  ])('finds %s', (_, sentence, clause, cue) => {
    expect(departureCue(sentence, clause)).toBe(cue);
  });

  it.each([
    ['a negation of what a clause forbids (the clause is kept)', 'We never modify a released payment instruction.', forbids],
    ['a negation of what a clause forbids, in Chinese', '已放行的付款指令我们从不修改。', forbids],
    ['a sentence that says neither', 'Keys are rotated every 60 days.', obliges],
    ['a change of state (no longer, 不再)', 'Keys no longer in use are revoked within a day.', obliges],
    ['a sentence that says neither, in Chinese', '密钥每60天轮换一次。', obliges],
    ['a contracted negation in a condition', "When a key isn't used for 90 days, it expires.", obliges],
    ['a contracted negation of what a clause forbids', "We don't modify a released payment instruction.", forbids],
    ['a negation of what is missing before the act may go ahead (X后才)', '没有到期日的密钥系统拒绝签发，补上到期日后才签发。', obliges],
    ['a negation in the only case the act goes ahead (只有X才)', '只有设了到期日的密钥才签发，没有到期日的一律不发。', obliges],
    ['a negation of what is missing until a person acts', 'No key is issued until an expiry date is set.', obliges],
  ])('finds nothing in %s', (_, sentence, clause) => {
    expect(departureCue(sentence, clause)).toBeUndefined();
  });
});
