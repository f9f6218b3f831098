// A minimal browser over fetch for tests of HTML forms that need no script (sign-in, consent,
// set-password pages): a path-scoped cookie jar, redirects followed by hand, and forms submitted with
// their hidden fields.

/** One response as the test sees it. */
export interface Page {
  url: string;
  status: number;
  text: string;
  location: string | null;
  headers: Headers;
}

export class FormBrowser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  /** `headers` go with every request (e.g. the X-Forwarded-For a proxy in front would add). */
  constructor(private readonly headers: Record<string, string> = {}) {}

  async get(url: string): Promise<Page> {
    return this.request(url, { method: 'GET' });
  }

  /** Follows redirects until the URL starts with `stopAt` (the relying party's callback) or a page is shown. */
  async follow(url: string, stopAt: string): Promise<Page> {
    let page = await this.get(url);
    for (let hops = 0; page.location && hops < 10; hops++) {
      const next = new URL(page.location, page.url).toString();
      if (next.startsWith(stopAt)) return { ...page, url: next };
      page = await this.get(next);
    }
    return page;
  }

  async post(url: string, fields: Record<string, string>): Promise<Page> {
    return this.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /**
   * Submits the page's form whose action contains `actionPart` (the first form by default), adding
   * `fields`; a submit button's `formaction` counts as an action of its form, as a browser sends it.
   */
  async submit(page: Page, fields: Record<string, string>, actionPart = ''): Promise<Page> {
    const forms = [...page.text.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)].flatMap((match) => [
      { action: match[1]!, body: match[2]! },
      ...[...match[2]!.matchAll(/<button [^>]*formaction="([^"]+)"/g)].map((button) => ({ action: button[1]!, body: match[2]! })),
    ]);
    const form = forms.find((candidate) => candidate.action.includes(actionPart));
    if (!form) throw new Error(`no form with action ${actionPart} on ${page.url}`);
    const hidden = Object.fromEntries(
      [...form.body.matchAll(/<input type="hidden" name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, unescape(m[2]!)]),
    );
    const action = new URL(unescape(form.action), page.url).toString();
    return this.request(action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...hidden, ...fields }).toString(),
    });
  }

  /** The Cookie header this browser sends to `url` (empty when it holds none for that path). */
  cookieHeader(url: string): string {
    const target = new URL(url);
    return [...this.cookies.entries()]
      .filter(([, c]) => target.pathname.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private async request(url: string, init: RequestInit): Promise<Page> {
    const cookie = this.cookieHeader(url);
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...this.headers, ...(init.headers as Record<string, string>), ...(cookie ? { Cookie: cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) this.store(line);
    return {
      url,
      status: response.status,
      text: await response.text(),
      location: response.headers.get('location'),
      headers: response.headers,
    };
  }

  private store(line: string): void {
    const [pair, ...attributes] = line.split(';');
    const [name, ...value] = pair!.trim().split('=');
    const attribute = (key: string) =>
      attributes
        .map((a) => a.trim())
        .find((a) => a.toLowerCase().startsWith(`${key}=`))
        ?.split('=')[1];
    const expires = attribute('expires');
    if (attribute('max-age') === '0' || (expires && new Date(expires).getTime() < Date.now())) {
      this.cookies.delete(name!);
      return;
    }
    this.cookies.set(name!, { value: value.join('='), path: attribute('path') ?? '/' });
  }
}

function unescape(value: string): string {
  return value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
