import fc from 'fast-check';
import { applyMergePatch, validateScenario } from '../src';
import { studioScenario } from './support/scenarios';

describe('applyMergePatch (RFC 7396)', () => {
  it('passes the examples of RFC 7396 appendix A', () => {
    const cases: [unknown, unknown, unknown][] = [
      [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
      [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
      [{ a: 'b' }, { a: null }, {}],
      [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
      [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
      [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
      [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
      [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
      [
        ['a', 'b'],
        ['c', 'd'],
        ['c', 'd'],
      ],
      [{ a: 'b' }, ['c'], ['c']],
      [{ a: 'foo' }, null, null],
      [{ a: 'foo' }, 'bar', 'bar'],
      [{ e: null }, { a: 1 }, { e: null, a: 1 }],
      [[1, 2], { a: 'b', c: null }, { a: 'b' }],
      [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ];
    for (const [target, patch, result] of cases) expect(applyMergePatch(target, patch)).toEqual(result);
  });

  it('revises a scenario: replaces the period list and the tiers, keeps the rest', () => {
    const base = studioScenario();
    const revisedTiers = base.tiers.filter((tier) => tier.tierId !== 'investor-pool');
    const patched = applyMergePatch(base, {
      periods: [{ periodId: '2027-01', revenue: '5.00', costs: '0.00' }],
      tiers: revisedTiers,
      notes: null,
    });
    const result = validateScenario(patched);
    expect(result).toEqual({
      ok: true,
      scenario: { ...base, periods: [{ periodId: '2027-01', revenue: '5.00', costs: '0.00' }], tiers: revisedTiers },
    });
  });

  it('treats an undefined member of a patch as absent', () => {
    expect(applyMergePatch({ a: 1 }, { a: undefined, b: 2 })).toEqual({ a: 1, b: 2 });
  });

  it('does not change its inputs nor share objects with them', () => {
    const target = Object.freeze({ a: Object.freeze({ b: 1 }), list: Object.freeze([Object.freeze({ c: 2 })]) });
    const patch = Object.freeze({ a: Object.freeze({ d: Object.freeze({ e: 3 }) }), z: null });
    const result = applyMergePatch(target, patch) as { a: { b: number; d: object }; list: object[] };
    expect(result).toEqual({ a: { b: 1, d: { e: 3 } }, list: [{ c: 2 }] });
    expect(result.list).not.toBe(target.list);
    expect(result.a.d).not.toBe(patch.a.d);
  });

  it('keeps a member named __proto__ as data, never as a prototype', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const result = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('is idempotent: applying a patch twice is applying it once', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (target, patch) => {
        const once = applyMergePatch(target, patch);
        expect(applyMergePatch(once, patch)).toEqual(once);
      }),
    );
  });

  it('leaves any object as it is under the empty patch', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (target) => {
        expect(applyMergePatch(target, {})).toEqual(target);
      }),
    );
  });

  it('never changes its inputs', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (target, patch) => {
        const [targetBefore, patchBefore] = [structuredClone(target), structuredClone(patch)];
        applyMergePatch(target, patch);
        expect([target, patch]).toEqual([targetBefore, patchBefore]);
      }),
    );
  });
});
