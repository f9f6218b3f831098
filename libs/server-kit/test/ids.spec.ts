import { isUUID } from 'class-validator';
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

describe('isUuid', () => {
  it('takes exactly the UUIDs class-validator takes: versions 1 to 8 with their variant, nil and max', () => {
    const ids = [
      '01900000-0000-7000-8000-0000000000aa',
      '01900000-0000-4000-BFFF-0000000000AA',
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '01900000-0000-0000-8000-0000000000aa',
      '01900000-0000-9000-8000-0000000000aa',
      '01900000-0000-7000-0000-0000000000aa',
      '01900000-0000-7000-c000-0000000000aa',
      '01900000000070008000-0000000000aa',
    ];
    expect(ids.map(isUuid)).toEqual(ids.map((id) => isUUID(id)));
    expect(ids.map(isUuid)).toEqual([true, true, true, true, false, false, false, false, false]);
  });
});
