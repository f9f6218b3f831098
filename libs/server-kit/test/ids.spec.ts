import { isUuid, uuidv7 } from '../src';

describe('uuidv7', () => {
  it('makes ids that ascend in the order they were made, within one millisecond too (the audit log is read oldest first by id)', () => {
    const now = Date.now();
    const ids = Array.from({ length: 5000 }, () => uuidv7(now));
    expect(ids.every(isUuid)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]!.slice(0, 13).replace('-', '')).toBe(now.toString(16).padStart(12, '0'));
  });

  it('keeps ascending when the clock steps back, and is version 7, variant 10', () => {
    const now = Date.now() + 60_000;
    const ids = [uuidv7(now), uuidv7(now - 5_000), uuidv7(now + 1), uuidv7(now + 1)];
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
