import { figureDeparture, figuresNotStated } from './clause-figures';

const clause = (en: string, zh: string) => ({ en, 'zh-Hans': zh });
const notice = clause(
  'Participants whose allocation changes should be notified of the new rule version at least 14 days before its effective date.',
  '分配额发生变化的参与方应在新规则版本生效日前至少14天收到通知。',
);
const review = clause(
  'Role assignments must be reviewed at least quarterly, and access that is no longer needed must be removed within 5 working days of the review.',
  '角色分配必须至少每季度审查一次，不再需要的访问权限必须在审查后5个工作日内撤销。',
);
const keys = clause(
  'API keys must expire no later than 90 days after issue, and during rotation the old and new keys must not both be valid for more than 7 days.',
  'API密钥必须在签发后90天内到期；轮换期间新旧密钥同时有效的时间不得超过7天。',
);

describe('the figures of a clause read against a sentence', () => {
  it('finds a duration outside a least bound and outside a most bound, in words, digits and Chinese numerals', () => {
    expect(figureDeparture(notice, 'Partners hear about new terms two or three days before they start.')).toEqual({
      stated: 'two or three days',
      bound: 'at least 14 days',
    });
    expect(figureDeparture(review, 'Access is removed within a week or two of the review.')).toEqual({
      stated: 'a week or two',
      bound: 'at most 5 working days',
    });
    expect(figureDeparture(keys, '合作方密钥有效期两年。')).toEqual({ stated: '两年', bound: 'at most 90天' });
    expect(figureDeparture(notice, '新规则生效前三天才通知合作方。')).toEqual({ stated: '三天', bound: 'at least 14天' });
  });

  it('says nothing of a duration within the bound, far from every bound, or of a clause that bounds nothing', () => {
    expect(figureDeparture(notice, 'Partners hear about new terms three weeks before they start.')).toBeUndefined();
    expect(figureDeparture(review, 'Access is removed within 3 working days of the review.')).toBeUndefined();
    expect(figureDeparture(keys, '密钥每60天轮换一次。')).toBeUndefined();
    expect(figureDeparture(review, 'Nobody has reviewed roles since we launched two years ago.')).toBeUndefined();
    expect(figureDeparture(clause('Each project has one owner.', '每个项目有一名负责人。'), 'Kept for 2 days.')).toBeUndefined();
  });

  it('lists the figures of a clause that a statement of it leaves out', () => {
    expect(figuresNotStated(review, 'Access no longer needed is removed within five working days.')).toEqual([]);
    expect(figuresNotStated(review, 'Access no longer needed is removed after the review.')).toEqual(['5 working days']);
  });
});
