import { standardsApiRefusal } from './shared-schemas';

describe("a tool's refusal of what standards-api refused", () => {
  it("reads as the gateway's own refusal when standards-api refused the caller, with standards-api's code", () => {
    expect(
      standardsApiRefusal(
        { ok: false, status: 403, message: 'Not allowed: organization_mismatch.', domainCode: 'authorization.denied' },
        'the draft',
      ),
    ).toEqual({
      ok: false,
      message: 'Refused: Not allowed: organization_mismatch.',
      code: 'authorization.denied',
    });
  });

  it('names standards-api and what it refused otherwise, with its code', () => {
    expect(
      standardsApiRefusal({ ok: false, status: 422, message: 'No template.', domainCode: 'split_projects.template_unknown' }, 'the draft'),
    ).toEqual({ ok: false, message: 'standards-api refused the draft: No template.', code: 'split_projects.template_unknown' });
  });

  it('is upstream_failed when standards-api named no code of its own (unreachable, not JSON, or an identity code)', () => {
    for (const domainCode of [undefined, 'keys.not_found' as const]) {
      expect(
        standardsApiRefusal(
          { ok: false, status: 503, message: 'standards-api is unreachable.', ...(domainCode ? { domainCode } : {}) },
          'the draft',
        ),
      ).toEqual({ ok: false, message: 'standards-api refused the draft: standards-api is unreachable.', code: 'upstream_failed' });
    }
  });
});
