import fc from 'fast-check';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { displayTextPattern, displayTextProblem, IsRealDateTime } from './validation';
import { CreateKeyRequestDto } from './identity/keys.dto';
import { CreateUserRequestDto, UpdateUserRequestDto } from './identity/users.dto';
import { RegisterAppRequestDto } from './identity/apps.dto';
import { CreateWaitlistRequestDto } from './identity/waitlist.dto';
import { CreateOrganizationRequestDto } from './identity/organizations.dto';
import { CreateSplitProjectRequestDto, NewScenarioDto } from './split-projects/split-projects.dto';
import { CreateWebhookEndpointRequestDto } from './events/webhooks.dto';

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

// Outside examples: the Trojan Source paper's characters (CVE-2021-42574), Unicode's Default_Ignorable_Code_Point
// characters that render as nothing, C0 and C1 controls, and the line and paragraph separators.
const BIDI_CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const INVISIBLE = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u3164', '\u115F', '\u00AD', '\u034F', ' ', '\u3000', '\u00A0'];
const CONTROLS = ['\u0000', '\u0007', '\u001B', '\u007F', '\u0085', '\u009B'];

describe('displayTextProblem', () => {
  const visibleText = fc.string({ unit: 'grapheme', minLength: 1 }).filter((text) => displayTextProblem(text) === null);

  it('accepts names in any script, with emoji and the marks that order mixed scripts', () => {
    for (const name of [
      'Acme',
      '\u6807\u51C6\u6CE8\u518C',
      '\u0645\u0633\u0627\u0639\u062F',
      'A\u200Fb',
      '\u{1F9D1}\u200D\u{1F4BB} Studio',
      'Caf\u00E9',
    ])
      expect([name, displayTextProblem(name)]).toEqual([name, null]);
  });

  it('refuses a bidirectional control or a control character wherever it sits', () => {
    fc.assert(
      fc.property(visibleText, fc.constantFrom(...BIDI_CONTROLS, ...CONTROLS, '\n', '\t', '\u2028'), fc.nat(), (text, bad, at) => {
        const position = at % (text.length + 1);
        expect(displayTextProblem(`${text.slice(0, position)}${bad}${text.slice(position)}`)).not.toBeNull();
      }),
    );
  });

  it('keeps tabs and line breaks in a text of lines, and nothing else it refuses', () => {
    expect(displayTextProblem('first line\n\tsecond\r\n', { lines: true })).toBeNull();
    for (const bad of [...BIDI_CONTROLS, ...CONTROLS]) expect(displayTextProblem(`a${bad}b`, { lines: true })).not.toBeNull();
  });

  it('calls a text blank when nothing in it shows', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...INVISIBLE), { minLength: 1, maxLength: 8 }), (parts) => {
        expect(displayTextProblem(parts.join(''))).toBe('must not be blank');
      }),
    );
  });
});

describe('displayTextPattern, the rule as JSON Schema states it', () => {
  // Texts near the rule's edges: every character it treats specially, among ordinary ones.
  const special = [
    ...BIDI_CONTROLS,
    ...CONTROLS,
    ...INVISIBLE,
    '\n',
    '\t',
    '\r',
    '\u2028',
    '\u2029',
    ' ',
    '\u3000',
    '\u200e',
    'a',
    '中',
    '😀',
  ];
  const nearTheEdges = fc.oneof(
    fc.string({ unit: fc.constantFrom(...special), maxLength: 6 }),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
  );

  it.each([false, true])(
    'takes exactly the texts the rule takes (lines: %s), read with Unicode semantics as the document says',
    (lines) => {
      const pattern = new RegExp(displayTextPattern({ lines }).source, 'u');
      fc.assert(
        fc.property(nearTheEdges, (text) => {
          expect([text, pattern.test(text)]).toEqual([text, displayTextProblem(text, { lines }) === null]);
        }),
        { numRuns: 2000 },
      );
    },
  );
});

describe('every name and description people read', () => {
  const cases: [new () => object, Record<string, unknown>, string][] = [
    [CreateKeyRequestDto, { class: 'app', name: '' }, 'name'],
    [
      CreateUserRequestDto,
      {
        externalId: 'e-1',
        email: 'a@example.com',
        emailVerified: true,
        locale: 'en',
        registryId: 'reg_00000000000000000000',
        displayName: '',
      },
      'displayName',
    ],
    [UpdateUserRequestDto, { displayName: '' }, 'displayName'],
    [RegisterAppRequestDto, { type: 'web', redirectUris: ['https://a.example/cb'], name: '' }, 'name'],
    [CreateWaitlistRequestDto, { organizationName: 'Acme', contactName: '', contactEmail: 'a@example.com', useCase: 'x' }, 'contactName'],
    [CreateWaitlistRequestDto, { organizationName: '', contactName: 'A', contactEmail: 'a@example.com', useCase: 'x' }, 'organizationName'],
    [CreateOrganizationRequestDto, { name: '' }, 'name'],
    [CreateSplitProjectRequestDto, { name: '' }, 'name'],
    [NewScenarioDto, { name: '' }, 'name'],
    [CreateWebhookEndpointRequestDto, { url: 'https://a.example/hook', eventTypes: ['role.granted'], description: '' }, 'description'],
  ];

  it('refuses a bidirectional override, a control character or a name nothing of which shows', () => {
    for (const [dto, plain, field] of cases) {
      for (const bad of ['Acme \u202Eevil', 'Acme\u001B[31m', '\u200B\u3164']) {
        const errors = validateSync(plainToInstance(dto, { ...plain, [field]: bad }) as object);
        expect([dto.name, field, bad, errors.find((error) => error.property === field)?.constraints?.['isDisplayText']]).toEqual([
          dto.name,
          field,
          bad,
          expect.stringMatching(new RegExp(`^${field} must`)),
        ]);
      }
      const good = validateSync(plainToInstance(dto, { ...plain, [field]: 'Acme \u6807\u51C6' }) as object);
      expect([dto.name, good.filter((error) => error.property === field)]).toEqual([dto.name, []]);
    }
  });
});
