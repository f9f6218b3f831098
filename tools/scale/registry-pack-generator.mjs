// Deterministic, seeded generator of a bilingual content pack at scale (issue 21, registry area), valid
// under libs/registry-content/FORMAT.md: the sample pack (its blocks, terms, tasks, roles, policies,
// brand and split templates, so its references and the split templates keep working) plus generated
// standards blocks (each with `versions` versions, the last current), terms, tasks and policies, up to
// the totals asked for. The text is composed from a small bilingual vocabulary of the platform's domain,
// so every record reads as a record (and searches like one: the common words are common); the same seed
// and sizes give byte-identical files on every machine. Task codes are TSK-000 … TSK-999 by format, so a
// pack holds at most 1 000 tasks.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// mulberry32, the seeded generator of the lifecycle simulation's schedules: the same numbers on every machine.
import { generator as random } from '../../e2e/src/simulation/schedule.ts';

export const MAX_TASKS = 1_000;
const SECTION_PREFIXES = ['SCA', 'SCB', 'SCC', 'SCD', 'SCE', 'SCF', 'SCG', 'SCH', 'SCI', 'SCJ'];
const SECTIONS_PER_PREFIX = 999;
const PUBLISHER = 'Revenue Split Standards Council';

// [en, zh-Hans] pairs. Terms are modifier × qualifier × noun: 50 × 50 × 40 = 100 000 names.
const MODIFIERS = pairs(
  'deferred 递延|provisional 临时|net 净|gross 总|quarterly 季度|monthly 月度|annual 年度|cross-border 跨境|consolidated 合并|residual 剩余|' +
    'minimum 最低|maximum 最高|contingent 或有|recurring 经常性|one-off 一次性|pooled 汇集|escrowed 托管|reserved 预留|adjusted 调整后|pro-rata 按比例|' +
    'tiered 分级|capped 封顶|guaranteed 保底|variable 浮动|fixed 固定|pending 待定|confirmed 已确认|disputed 有争议的|reversed 已冲销的|corrected 已更正的|' +
    'interim 中期|final 最终|opening 期初|closing 期末|daily 每日|weekly 每周|regional 区域|global 全球|internal 内部|external 外部|' +
    'primary 主要|secondary 次要|shared 共享|dedicated 专用|audited 已审计的|unaudited 未审计的|estimated 预估|actual 实际|projected 预计|historical 历史',
);
const QUALIFIERS = pairs(
  'revenue 收入|cost 成本|settlement 结算|equity 股权|partner 合作方|investor 投资方|participant 参与方|platform 平台|project 项目|rule 规则|' +
    'tier 层级|payment 付款|payout 分配款|fee 费用|tax 税务|currency 币种|ledger 账簿|scenario 情景|approval 审批|audit 审计|' +
    'compliance 合规|agent 智能体|operator 运营方|customer 客户|supplier 供应商|royalty 版税|licence 许可|subscription 订阅|advertising 广告|merchandise 商品|' +
    'content 内容|channel 渠道|region 地区|contract 合同|invoice 发票|refund 退款|chargeback 拒付|dispute 争议|reserve 准备金|commission 佣金|' +
    'bonus 奖金|penalty 罚金|interest 利息|dividend 分红|grant 补助|budget 预算|forecast 预测|milestone 里程碑|period 期间|entity 实体',
);
const NOUNS = pairs(
  'allocation 分配额|balance 余额|threshold 阈值|statement 对账单|schedule 计划表|pool 资金池|account 账户|entry 分录|adjustment 调整项|ratio 比率|' +
    'rate 费率|limit 限额|window 窗口期|basis 基数|share 份额|amount 金额|report 报告|register 登记簿|record 记录|notice 通知|' +
    'claim 申领|holdback 扣留款|cap 上限|floor 下限|buffer 缓冲额|transfer 划转|instruction 指令|summary 摘要|breakdown 明细|variance 差异|' +
    'accrual 应计项|provision 拨备|estimate 估算|exposure 敞口|obligation 义务|entitlement 应得权益|deduction 扣减项|credit 贷记额|debit 借记额|valuation 估值',
);
// Standards blocks: a subject and an aspect; a clause: the subject, a requirement (with its condition cues) and a timing.
const SUBJECTS = pairs(
  'settlement_run 结算批次|equity_ledger 股权账簿|split_rule 分成规则|rule_version 规则版本|operating_scenario 运营情景|payment_instruction 付款指令|' +
    'partner_app 合作方应用|user_mirror 用户镜像|api_key 接口密钥|audit_log 审计日志|legal_entity 法人实体|revenue_report 收入报告|' +
    'cost_statement 成本报表|currency_conversion 币种换算|agent_draft 智能体草稿|participant_register 参与方名册|payout_schedule 分配计划|' +
    'reserve_account 准备金账户|tax_withholding 代扣税款|dispute_record 争议记录',
  (en) => en.replace(/_/g, ' '),
);
const ASPECTS = pairs(
  'approval 审批|recording 记录|retention 保留|review 审查|correction 更正|reporting 报告|access 访问控制|reconciliation 对账|' +
    'disclosure 披露|archiving 归档|verification 核验|escalation 上报',
);
const REQUIREMENTS = [
  { en: 'approved by a second person', zh: '由第二人审批', cue: 'approv|sign', zhCue: '审批|批准' },
  { en: 'recorded in the audit log', zh: '记入审计日志', cue: 'record|log', zhCue: '记录|记入' },
  { en: 'reviewed by the compliance officer', zh: '由合规官审查', cue: 'review|check', zhCue: '审查|复核' },
  { en: 'signed by an authorised human', zh: '由经授权的人员签署', cue: 'sign|authoris', zhCue: '签署|授权' },
  { en: 'kept for seven years', zh: '保存七年', cue: 'kept|retain|keep', zhCue: '保存|保留' },
  { en: 'reconciled against the equity ledger', zh: '与股权账簿核对', cue: 'reconcil|match', zhCue: '核对|对账' },
  { en: 'reported to every participant', zh: '向每一参与方报告', cue: 'report|notif', zhCue: '报告|通知' },
  { en: 'verified against its source document', zh: '依据原始凭证核验', cue: 'verif|check', zhCue: '核验|核对' },
];
const TIMINGS = pairs(
  'before_it_takes_effect 在生效之前|within_five_business_days 在五个工作日内|at_the_end_of_each_period 在每个期间结束时|' +
    'whenever_it_changes 在每次变更时|before_any_payment_is_made 在任何付款之前|once_a_quarter 每季度一次',
  (en) => en.replace(/_/g, ' '),
);
const TAGS = [
  'governance',
  'settlement',
  'ledger',
  'payments',
  'security',
  'data',
  'agents',
  'reporting',
  'tax',
  'partners',
  'audit',
  'currency',
];
const ROLES = [
  'project-owner',
  'platform-operator',
  'settlement-approver',
  'scenario-modeller',
  'compliance-officer',
  'finance-controller',
];
const DEFINITIONS = [
  {
    en: (m, q, n) => `A ${m.en} ${n.en} kept for ${q.en} amounts, used when a settlement period is closed and reported.`,
    zh: (m, q, n) => `为${q.zh}金额设立的${m.zh}${n.zh}，在结算期间结账和报告时使用。`,
  },
  {
    en: (m, q, n) => `The ${n.en} of a project's ${q.en} figures, stated on a ${m.en} basis.`,
    zh: (m, q, n) => `项目${q.zh}数据的${n.zh}，按${m.zh}口径列示。`,
  },
  {
    en: (m, q, n) => `The ${m.en} ${n.en} that a participant may rely on for ${q.en} purposes.`,
    zh: (m, q, n) => `参与方在${q.zh}方面可以依据的${m.zh}${n.zh}。`,
  },
  {
    en: (m, q, n) => `A ${n.en} derived from ${q.en} records, reviewed as ${m.en} before any payout.`,
    zh: (m, q, n) => `根据${q.zh}记录得出的${n.zh}，在任何分配之前按${m.zh}口径复核。`,
  },
];

function pairs(list, english = (en) => en) {
  return list.split('|').map((pair) => {
    const [en, zh] = pair.split(' ');
    return { en: english(en), zh, slug: en.replace(/_/g, '-') };
  });
}

const acceptance = (subject, requirement) => localized(`The ${subject.en} is ${requirement.en}.`, `${subject.zh}已${requirement.zh}。`);
const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const localized = (en, zh) => ({ en, 'zh-Hans': zh });

/**
 * Writes the pack into `directory`: `standards` blocks in all (the sample's and generated ones of
 * `versions` versions each), `terms`, `tasks` (at most MAX_TASKS) and `policies` in all. Returns what it wrote.
 */
export function generateRegistryPack({ directory, samplePackDirectory, seed, standards, versions, terms, tasks, policies }) {
  if (tasks > MAX_TASKS) throw new Error(`the format's task codes allow at most ${MAX_TASKS} tasks, not ${tasks}`);
  const sample = (file) => JSON.parse(readFileSync(path.join(samplePackDirectory, file), 'utf8'));
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const pack = { ...sample('pack.json'), packVersion: `2026.11.${seed % 1000}` };

  const sampleBlocks = sample('standards.json');
  const sectionIds = [];
  const sampleSections = new Set(sampleBlocks.map((b) => b.sectionId)).size;
  const blocks = [...sampleBlocks];
  for (let i = 0; sectionIds.length < standards - sampleSections; i++) {
    const sectionId = `${SECTION_PREFIXES[Math.floor(i / SECTIONS_PER_PREFIX)]}-${(i % SECTIONS_PER_PREFIX) + 1}`;
    sectionIds.push(sectionId);
    blocks.push(...blockVersions(sectionId, versions, pick));
  }

  const sampleTerms = sample('terms.json');
  const taken = new Set(sampleTerms.map((t) => t.termId));
  const generatedTerms = [];
  // A stride coprime to the 100 000 combinations visits them all in a seeded order.
  const combinations = MODIFIERS.length * QUALIFIERS.length * NOUNS.length;
  const stride = 7_919;
  for (let i = 0, at = seed % combinations; generatedTerms.length < terms - sampleTerms.length && i < combinations; i++) {
    at = (at + stride) % combinations;
    const modifier = MODIFIERS[at % MODIFIERS.length];
    const qualifier = QUALIFIERS[Math.floor(at / MODIFIERS.length) % QUALIFIERS.length];
    const noun = NOUNS[Math.floor(at / (MODIFIERS.length * QUALIFIERS.length))];
    const termId = `${modifier.slug}-${qualifier.slug}-${noun.slug}`;
    if (taken.has(termId)) continue;
    taken.add(termId);
    generatedTerms.push({ termId, modifier, qualifier, noun });
  }
  if (generatedTerms.length < terms - sampleTerms.length) throw new Error(`at most ${combinations + sampleTerms.length} terms`);
  const termRecords = generatedTerms.map(({ termId, modifier, qualifier, noun }, index) => {
    const definition = pick(DEFINITIONS);
    const related = [1, 2]
      .map((offset) => generatedTerms[(index + offset * 97) % generatedTerms.length].termId)
      .filter((id) => id !== termId);
    return {
      termId,
      term: localized(capitalize(`${modifier.en} ${qualifier.en} ${noun.en}`), `${modifier.zh}${qualifier.zh}${noun.zh}`),
      definition: localized(definition.en(modifier, qualifier, noun), definition.zh(modifier, qualifier, noun)),
      synonyms:
        index % 2 === 0
          ? { en: [`${qualifier.en} ${noun.en} (${modifier.en})`], 'zh-Hans': [`${qualifier.zh}${noun.zh}（${modifier.zh}）`] }
          : { en: [], 'zh-Hans': [] },
      ...(index % 5 === 0 ? { designations: { en: [`${modifier.en} ${noun.en}`], 'zh-Hans': [`${modifier.zh}${noun.zh}`] } } : {}),
      related: next() < 0.5 ? related : [],
      standards: sectionIds.length > 0 ? [sectionIds[index % sectionIds.length]] : [],
    };
  });

  const sampleTasks = sample('tasks.json');
  const sampleCodes = new Set(sampleTasks.map((t) => t.taskCode));
  const codes = Array.from({ length: MAX_TASKS }, (_, n) => `TSK-${String(n).padStart(3, '0')}`).filter((code) => !sampleCodes.has(code));
  const taskRecords = codes.slice(0, Math.max(0, tasks - sampleTasks.length)).map((taskCode, index, generated) => {
    const subject = pick(SUBJECTS);
    const aspect = pick(ASPECTS);
    const cited = sectionIds.length > 0 ? [sectionIds[index % sectionIds.length], sectionIds[(index * 7 + 3) % sectionIds.length]] : [];
    return {
      taskCode,
      title: localized(`${capitalize(aspect.en)} of the ${subject.en}`, `${subject.zh}${aspect.zh}`),
      description: localized(
        `Carries out the ${aspect.en} of the ${subject.en} for one project and records the outcome for the approver.`,
        `为一个项目执行${subject.zh}${aspect.zh}，并为审批人记录结果。`,
      ),
      roles: [...new Set([pick(ROLES), pick(ROLES)])],
      // Only earlier generated tasks: no cycle.
      prerequisites: index > 0 && next() < 0.6 ? [generated[Math.floor(next() * index)]] : [],
      inputs: [{ name: `${subject.slug}-draft`, description: localized(`The ${subject.en} as drafted.`, `起草完成的${subject.zh}。`) }],
      outputs: [{ name: `${aspect.slug}-record`, description: localized(`The record of the ${aspect.en}.`, `${aspect.zh}的记录。`) }],
      acceptanceCriteria: [acceptance(subject, pick(REQUIREMENTS))],
      standards: [...new Set(cited)].map((sectionId) => `${sectionId}@${versions}.0`),
    };
  });

  const samplePolicies = sample('policies.json');
  const policyRecords = Array.from({ length: Math.max(0, policies - samplePolicies.length) }, (_, index) => {
    const subject = SUBJECTS[index % SUBJECTS.length];
    const requirement = pick(REQUIREMENTS);
    const timing = pick(TIMINGS);
    const policyId = `${subject.slug}-policy-${index + 1}`;
    return {
      policyId,
      versions: [2024, 2025, 2026].map((year, v) => ({
        version: `${v + 1}.0`,
        effectiveFrom: `${year}-01-01`,
        ...(v < 2 ? { effectiveTo: `${year}-12-31` } : {}),
        title: localized(`Policy on the ${subject.en}, ${year}`, `${year}年${subject.zh}政策`),
        summary: localized(`How the platform handles the ${subject.en} from ${year}.`, `平台自${year}年起处理${subject.zh}的方式。`),
        body: localized(
          `The ${subject.en} must be ${requirement.en} ${timing.en}. This version applies from 1 January ${year}.`,
          `${subject.zh}必须${timing.zh}${requirement.zh}。本版本自${year}年1月1日起适用。`,
        ),
        citation: `${policyId}@${v + 1}.0`,
      })),
    };
  });

  mkdirSync(directory, { recursive: true });
  const write = (file, value) => writeFileSync(path.join(directory, file), `${JSON.stringify(value)}\n`);
  write('pack.json', pack);
  write('standards.json', blocks);
  write('terms.json', [...sampleTerms, ...termRecords]);
  write('tasks.json', [...sampleTasks, ...taskRecords]);
  write('policies.json', [...samplePolicies, ...policyRecords]);
  for (const file of ['roles.json', 'brand.json', 'split-templates.json']) write(file, sample(file));
  return {
    packVersion: pack.packVersion,
    standards: sectionIds.length + sampleSections,
    standardVersions: blocks.length,
    terms: sampleTerms.length + termRecords.length,
    tasks: sampleTasks.length + taskRecords.length,
    policies: samplePolicies.length + policyRecords.length,
  };
}

/** The versions of one generated block: 1.0 … `count`.0, a year apart, the last current. */
function blockVersions(sectionId, count, pick) {
  const subject = pick(SUBJECTS);
  const aspect = pick(ASPECTS);
  const tags = [...new Set([pick(TAGS), pick(TAGS)])];
  const clauses = pick([3, 4]);
  return Array.from({ length: count }, (_, v) => {
    const version = `${v + 1}.0`;
    const year = 2027 - count + v;
    return {
      sectionId,
      version,
      status: v === count - 1 ? 'current' : 'superseded',
      effectiveFrom: `${year}-01-01`,
      ...(v > 0 ? { supersedes: `${v}.0` } : {}),
      title: localized(`${capitalize(subject.en)} ${aspect.en}`, `${subject.zh}${aspect.zh}`),
      summary: localized(
        `Sets out the ${aspect.en} of the ${subject.en}, as in force from ${year}.`,
        `规定${subject.zh}的${aspect.zh}要求，自${year}年起适用。`,
      ),
      clauses: Array.from({ length: clauses }, (_, c) => {
        const requirement = pick(REQUIREMENTS);
        const timing = pick(TIMINGS);
        return {
          clauseId: String(c + 1),
          text: localized(`The ${subject.en} must be ${requirement.en} ${timing.en}.`, `${subject.zh}必须${timing.zh}${requirement.zh}。`),
          ...(c === 0
            ? {
                conditions: {
                  requires: localized([`${subject.slug.split('-')[0]} ${requirement.cue}`], [`${subject.zh} ${requirement.zhCue}`]),
                  contradictedBy: localized([`nobody|without|never ${requirement.cue}`], [`没有|未经|无人 ${requirement.zhCue}`]),
                },
              }
            : {}),
        };
      }),
      tags,
      source: {
        publisher: PUBLISHER,
        edition: `${year} edition`,
        uri: `https://standards.revsplit.example/${sectionId}/${version}`,
        sha256: sha256(`${sectionId}@${version}:${subject.en}:${aspect.en}`),
      },
    };
  });
}
