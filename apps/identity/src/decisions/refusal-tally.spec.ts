import { RefusalTally } from './refusal-tally';

describe('RefusalTally', () => {
  it('writes the first refusal of a minute and carries the ones held back into the next row', () => {
    let now = 1_000_000;
    const tally = new RefusalTally(() => now);
    expect(tally.count('standards-api:split-project:activate')).toBe(1);
    for (let i = 0; i < 499; i++) expect(tally.count('standards-api:split-project:activate')).toBeNull();
    expect(tally.count('standards-api:settlement:post')).toBe(1);
    now += 59_999;
    expect(tally.count('standards-api:split-project:activate')).toBeNull();
    now += 1;
    expect(tally.count('standards-api:split-project:activate')).toBe(501);
    now += 60_000;
    expect(tally.count('standards-api:split-project:activate')).toBe(1);
  });

  it('holds a count whose row was not written, and writes it with the next refusal', () => {
    let now = 1_000_000;
    const tally = new RefusalTally(() => now);
    for (let i = 0; i < 4; i++) tally.count('standards-api:settlement:post');
    now += 60_000;
    const due = tally.count('standards-api:settlement:post');
    expect(due).toBe(4);
    expect(tally.count('standards-api:settlement:post')).toBeNull();
    tally.unwritten('standards-api:settlement:post', due!);
    now += 1;
    expect(tally.count('standards-api:settlement:post')).toBe(6);
    expect(tally.count('standards-api:settlement:post')).toBeNull();
  });
});
