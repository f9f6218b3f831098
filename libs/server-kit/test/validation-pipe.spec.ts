import fc from 'fast-check';
import type { ArgumentMetadata, Type as ClassType } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsOptional, ValidateNested } from 'class-validator';
import {
  CreateKeyRequestDto,
  ErrorCode,
  EventHandoverRequestDto,
  PageQueryDto,
  RotateWebhookSecretRequestDto,
  SearchRequestDto,
} from '@stdreg/contracts';
import { DomainError } from '../src/http/domain-error';
import { createValidationPipe, unconvertibleField } from '../src/http/validation-pipe';

class WindowDto {
  @IsOptional() @Type(() => Date) @IsDate() from?: Date;
}

class ScheduleDto {
  @IsOptional() @Type(() => Number) @IsInt() every?: number;
  @IsOptional() @ValidateNested() @Type(() => WindowDto) window?: WindowDto;
}

const body = (metatype: ClassType<unknown>): ArgumentMetadata => ({ type: 'body', metatype });
const query = (metatype: ClassType<unknown>): ArgumentMetadata => ({ type: 'query', metatype });

/** What the pipe threw, or undefined when it accepted the value. */
async function refusal(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
  try {
    await createValidationPipe().transform(value, metadata);
    return undefined;
  } catch (error) {
    return error;
  }
}

// JSON.parse, as the body parser does: an own `toString` that is data, not a method.
const withDataToString = (value: unknown): unknown => JSON.parse(`{"toString":${JSON.stringify(value)}}`);

describe('the validation pipe, given objects that cannot be read as a number, a text or a date', () => {
  it('refuses one where a number is declared with a validation error that names the field', async () => {
    const error = await refusal({ every: withDataToString({ isAdmin: true, polluted: true }) }, body(ScheduleDto));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: ErrorCode.ValidationFailed,
      errors: [{ field: 'every', message: expect.stringContaining('every') }],
    });
  });

  it('refuses one where a date is declared, nested, and in a query', async () => {
    expect(await refusal({ window: { from: withDataToString(1) } }, body(ScheduleDto))).toMatchObject({
      code: ErrorCode.ValidationFailed,
      errors: [{ field: 'window.from' }],
    });
    expect(await refusal({ limit: withDataToString('5') }, query(PageQueryDto))).toMatchObject({
      code: ErrorCode.ValidationFailed,
      errors: [{ field: 'limit' }],
    });
  });

  it('answers every number field of the request contracts with a validation error, never a TypeError', async () => {
    const cases: [ClassType<unknown>, Record<string, unknown>, string][] = [
      [RotateWebhookSecretRequestDto, {}, 'overlapSeconds'],
      [SearchRequestDto, { q: 'idempotency', in: 'terms' }, 'limit'],
      [CreateKeyRequestDto, { kind: 'platform' }, 'maxApps'],
      [PageQueryDto, {}, 'limit'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), fc.jsonValue({ maxDepth: 2 }), async ([metatype, valid, field], inner) => {
        const error = await refusal({ ...valid, [field]: withDataToString(inner) }, body(metatype));
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).code).toBe(ErrorCode.ValidationFailed);
      }),
      { numRuns: 200 },
    );
    const handover = { events: [{ version: withDataToString(1) }] };
    expect(await refusal(handover, body(EventHandoverRequestDto))).toMatchObject({ code: ErrorCode.ValidationFailed });
  });

  it('still accepts what converts, and lets an error of its own code through unchanged', async () => {
    expect(await createValidationPipe().transform({ every: '7' }, body(ScheduleDto))).toEqual({ every: 7 });
    expect(await createValidationPipe().transform({ every: { toString: () => '8' } }, body(ScheduleDto))).toEqual({ every: 8 });
    class Broken {
      @Type(() => {
        throw new TypeError('a bug in a DTO');
      })
      @IsOptional()
      part?: unknown;
    }
    expect(await refusal({ part: { fine: true } }, body(Broken))).toEqual(new TypeError('a bug in a DTO'));
  });

  it('names the first such object by its path, and finds none in plain JSON', () => {
    expect(unconvertibleField({ a: [1, { b: withDataToString(null) }] })).toBe('a[1].b');
    expect(unconvertibleField(withDataToString('x'))).toBe('body');
    expect(unconvertibleField(JSON.parse('{"valueOf":1,"constructor":{"prototype":{}},"__proto__":{"polluted":true}}'))).toBeNull();
    // fast-check's keys include `toString` on purpose; a JSON value without one has nothing to find.
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(!JSON.stringify(value).includes('"toString":'));
        expect(unconvertibleField(value)).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (outer, inner) => {
        expect(unconvertibleField([outer, { found: withDataToString(inner) }])).not.toBeNull();
      }),
    );
  });
});

describe('the validation pipe, given a query it has judged before', () => {
  it('answers a DTO no handler can change, so the next request with the same query gets it as sent', async () => {
    const pipe = createValidationPipe();
    const first = (await pipe.transform({ limit: '5', cursor: 'abc' }, query(PageQueryDto))) as PageQueryDto;
    expect(() => {
      first.limit = 100;
    }).toThrow(TypeError);
    expect(() => {
      delete first.cursor;
    }).toThrow(TypeError);
    expect(await pipe.transform({ limit: '5', cursor: 'abc' }, query(PageQueryDto))).toEqual({ limit: 5, cursor: 'abc' });
  });

  it('answers the same refusal again', async () => {
    const pipe = createValidationPipe();
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(pipe.transform({ limit: '0' }, query(PageQueryDto))).rejects.toMatchObject({ errors: [{ field: 'limit' }] });
    }
  });
});

describe('the validation pipe, given a field that breaks several rules', () => {
  it('names each field once, with the first rule it breaks', async () => {
    // `limit=abc` is not an integer, and not at least 1 or at most 100 either; one message says enough.
    const error = await refusal({ limit: 'abc', cursor: '' }, query(PageQueryDto));
    expect(error).toMatchObject({
      code: ErrorCode.ValidationFailed,
      errors: [
        { field: 'limit', message: 'limit must be an integer number' },
        { field: 'cursor', message: expect.stringContaining('cursor') },
      ],
    });
    expect((error as DomainError).errors).toHaveLength(2);
  });
});
