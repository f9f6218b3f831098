// Every credential the test process sends or is given over fetch while a story plays (keys, client and signing
// secrets, password-setup tokens, authorization codes and verifiers, access, refresh and ID tokens, confirmation
// tokens, passwords), so that a test can look for each one in what the services wrote.

/** Fields whose value is a credential, in a JSON body (sent or answered), a form, a query or a redirect. */
const CREDENTIAL_FIELDS = new Set([
  'secret',
  'clientSecret',
  'client_secret',
  'password',
  'code',
  'code_verifier',
  'access_token',
  'refresh_token',
  'id_token',
  'subject_token',
  'client_assertion',
  'confirmationToken',
]);
/** Shorter values are not credentials (a scope, a status); counting them would find words anywhere. */
const SHORTEST = 12;

export interface CredentialsSeen {
  /** Each credential once, with the field or header it came in. */
  readonly values: Map<string, string>;
  add(source: string, value: unknown): void;
  /** Puts the global fetch back. */
  stop(): void;
}

/** Watches the global fetch of this process until `stop`. */
export function watchCredentials(): CredentialsSeen {
  const values = new Map<string, string>();
  const add = (source: string, value: unknown) => {
    if (typeof value === 'string' && value.length >= SHORTEST && !values.has(value)) values.set(value, source);
  };
  const fields = (value: unknown, name = ''): void => {
    if (Array.isArray(value)) for (const item of value) fields(item, name);
    else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) fields(item, key);
    else if (CREDENTIAL_FIELDS.has(name)) add(name, value);
    else if (name === 'setupUrl' && typeof value === 'string') add('password-setup token', value.split('/').pop());
  };
  const params = (search: URLSearchParams) => {
    for (const [name, value] of search) fields(value, name);
  };
  const text = (body: string) => {
    try {
      fields(JSON.parse(body));
    } catch {
      params(new URLSearchParams(body));
    }
  };
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const authorization = request.headers.get('authorization');
    if (authorization) {
      const [scheme, credential] = authorization.split(' ');
      add('Authorization', credential);
      if (scheme?.toLowerCase() === 'basic') {
        add(
          'client secret (Basic)',
          decodeURIComponent(
            atob(credential ?? '')
              .split(':')
              .slice(1)
              .join(':'),
          ),
        );
      }
    }
    params(new URL(request.url).searchParams);
    if (request.body) text(await request.clone().text());
    const response = await original(request);
    const location = response.headers.get('location');
    if (location) params(new URL(location, request.url).searchParams);
    // Not an event stream, which may stay open.
    if (response.headers.get('content-type')?.includes('json')) text(await response.clone().text());
    return response;
  };
  return { values, add, stop: () => void (globalThis.fetch = original) };
}

/** The credentials of `seen` that occur in `text`, each as `source: value`. */
export function credentialsIn(text: string, seen: CredentialsSeen): string[] {
  return [...seen.values].filter(([value]) => text.includes(value)).map(([value, source]) => `${source}: ${value}`);
}
