import assert from 'node:assert/strict';

/**
 * A minimal browser for the authorization flow without Chromium: a cookie jar (name → value;
 * the flow's cookies all live under one issuer) and manual redirects, so a test sees each hop.
 */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }

  /** Fetches `url` with the jar's cookies, keeping the answer's cookies; redirects are not followed. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.header() },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Follows redirects (GET) from `url` until a page answers or `stop(url)` says the location is the end; the last URL. */
  async follow(url: string, stop: (location: string) => boolean): Promise<{ url: string; res: Response }> {
    let current = url;
    for (let hops = 0; hops < 10; hops++) {
      const res = await this.fetch(current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: current, res };
      current = new URL(location, current).href;
      if (stop(current)) return { url: current, res };
    }
    assert.fail(`too many redirects from ${url}`);
  }
}

/** The form of `html` whose `id` is given (or the first), its action (absolute against `base`) and its hidden fields. */
export function readForm(html: string, base: string, id?: string): { action: string; fields: Record<string, string> } {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)];
  const form = id ? forms.find((f) => f[1]!.includes(`id="${id}"`)) : forms[0];
  assert.ok(form, `no form ${id ?? ''} in ${html.slice(0, 500)}`);
  const action = /action="([^"]*)"/.exec(form[1]!)![1]!.replaceAll('&#38;', '&').replaceAll('&amp;', '&');
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input\b([^>]*)>/g)) {
    if (!/type="hidden"/.test(input[1]!)) continue;
    const name = /name="([^"]*)"/.exec(input[1]!)?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(input[1]!)?.[1] ?? '';
  }
  return { action: new URL(action, base).href, fields };
}

/** POSTs `fields` as a form with the jar. */
export function postWithJar(jar: CookieJar, url: string, fields: Record<string, string>): Promise<Response> {
  return jar.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}
