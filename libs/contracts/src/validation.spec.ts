import { validateSync } from 'class-validator';
import { IsRealDateTime } from './validation';

class Timed {
  @IsRealDateTime()
  periodEnd!: string;
}

function messagesFor(periodEnd: string): string[] {
  const timed = Object.assign(new Timed(), { periodEnd });
  return validateSync(timed).flatMap((error) => Object.values(error.constraints ?? {}));
}

describe('IsRealDateTime', () => {
  it('accepts a date-time with its time zone', () => {
    expect(messagesFor('2026-01-31T23:59:59Z')).toEqual([]);
    expect(messagesFor('2026-01-31T23:59:59.5+08:00')).toEqual([]);
  });

  it('tells a caller who sent a date alone that a time and a time zone are needed, with an example', () => {
    expect(messagesFor('2026-01-31')).toContain('periodEnd must be an RFC 3339 date-time with a time zone, like 2026-01-31T23:59:59Z');
  });

  it('refuses a day the calendar does not have', () => {
    expect(messagesFor('2026-02-30T00:00:00Z')).toContain('periodEnd must be a real calendar date and time');
  });
});
