import { randomBytes } from 'node:crypto';
import { ClientSecretSealer } from './client-secret-sealer';
import type { OidcSecrets } from './oidc-secrets';

const sealerWith = (clientSecretKey: Buffer) =>
  new ClientSecretSealer({ signingKeys: [], publicKeys: [], cookieKeys: [], clientSecretKey } satisfies OidcSecrets);

describe('client secrets sealed at rest', () => {
  const key = randomBytes(32);
  const sealer = sealerWith(key);

  it('reads back what it sealed for the same client, and never holds the secret in the clear', () => {
    const sealed = sealer.seal('client-a', 'the client secret');
    expect(sealer.open('client-a', sealed)).toBe('the client secret');
    expect(sealed.includes(Buffer.from('the client secret'))).toBe(false);
  });

  it('seals the same secret differently each time (a fresh nonce), and both read back', () => {
    const [first, second] = [sealer.seal('client-a', 'same secret'), sealer.seal('client-a', 'same secret')];
    expect(first.equals(second)).toBe(false);
    expect(first.subarray(0, 12).equals(second.subarray(0, 12))).toBe(false);
    expect([sealer.open('client-a', first), sealer.open('client-a', second)]).toEqual(['same secret', 'same secret']);
  });

  it('reads nothing for another client: a sealed secret copied to another client id does not open', () => {
    expect(sealer.open('client-b', sealer.seal('client-a', 'the client secret'))).toBeNull();
  });

  it('reads nothing under another key: after the key is replaced, an old sealed secret is null, never garbage', () => {
    const sealedUnderOld = sealer.seal('client-a', 'the client secret');
    const rotated = sealerWith(randomBytes(32));
    expect(rotated.open('client-a', sealedUnderOld)).toBeNull();
    expect(rotated.open('client-a', rotated.seal('client-a', 'new secret'))).toBe('new secret');
  });

  it('reads nothing from a sealed secret changed in any part: nonce, tag or ciphertext', () => {
    const sealed = sealer.seal('client-a', 'the client secret');
    for (const at of [0, 12, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered[at] = tampered[at]! ^ 1;
      expect(sealer.open('client-a', tampered)).toBeNull();
    }
    expect(sealer.open('client-a', sealed.subarray(0, 20))).toBeNull();
  });
});
