import { forwardedCredential } from '../src';

describe('forwardedCredential', () => {
  it('tells an API key from an access token, and refuses anything but one bearer credential', () => {
    expect(forwardedCredential('Bearer stdreg_app_abc_def')).toEqual({ kind: 'api_key', value: 'stdreg_app_abc_def' });
    expect(forwardedCredential('Bearer eyJhbGciOi.e30.sig')).toEqual({ kind: 'access_token', value: 'eyJhbGciOi.e30.sig' });
    expect(forwardedCredential('bearer stdreg_app_abc_def')).toEqual({ kind: 'api_key', value: 'stdreg_app_abc_def' });
    for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b']) expect(forwardedCredential(header)).toBeNull();
  });
});
