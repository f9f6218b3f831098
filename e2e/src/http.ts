/** A JSON call to one of the services, failing loudly with the answer when the status is not the expected one. */
export interface CallOptions {
  token?: string;
  organizationId?: string;
  body?: unknown;
  headers?: Record<string, string>;
  expect: number | number[];
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = Record<string, unknown>>(method: string, url: string, options: CallOptions): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.organizationId) headers['x-organization-id'] = options.organizationId;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  const expected = Array.isArray(options.expect) ? options.expect : [options.expect];
  if (!expected.includes(response.status)) {
    throw new Error(`${method} ${url} answered ${response.status}, expected ${expected.join(' or ')}: ${text.slice(0, 800)}`);
  }
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}
