/**
 * Where `path` is at the service whose base URL is `base` (a variable declared with `IsServiceUrl`). The base's
 * path is kept, so a service mounted under a prefix behind a proxy (`http://proxy:8080/identity`) is called at
 * `<prefix><path>`, and a trailing slash on the base reads the same as none. `path` begins with `/` and is taken
 * as written (its segments already encoded); a query goes on the result's `searchParams`, never in `path`.
 */
export function serviceUrl(base: string, path: string): URL {
  if (!path.startsWith('/') || /[?#]/.test(path)) throw new TypeError(`a service path begins with / and has no query or fragment: ${path}`);
  const url = new URL(base);
  if (url.search !== '' || url.hash !== '') throw new TypeError('a service URL has no query or fragment');
  url.pathname = `${url.pathname.replace(/\/$/, '')}${path}`;
  return url;
}
