/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The Content-Security-Policy of the provider's own pages: no script, https or inline images, and
 * forms only to the server itself and, for the consent page, to `redirectTargets` (the client's
 * redirect URIs): browsers apply `form-action` to the redirects that follow a form's POST, and the
 * approval ends at the client's redirect URI.
 */
export function providerPageCsp(redirectTargets: readonly string[] = []): string {
  const sources = new Set<string>(["'self'"]);
  for (const target of redirectTargets) {
    try {
      const url = new URL(target);
      sources.add(url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol);
    } catch {
      /* not a URL: nothing to allow */
    }
  }
  return `default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; form-action ${[...sources].join(' ')}; frame-ancestors 'none'`;
}

/**
 * The frame of the identity provider's plain-HTML pages (consent, device code entry, confirmation
 * and success): one look, no script. `title` is escaped here; `body` is HTML the caller escaped.
 */
export function providerPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#111}
button{font:inherit;padding:.5rem 1.25rem;margin-right:.5rem;border-radius:.375rem;border:1px solid #888;background:#fff}
button[value=allow],button.primary{background:#111;color:#fff;border-color:#111}form{display:inline}
input[type=text]{font:inherit;font-size:1.5rem;letter-spacing:.1em;text-transform:uppercase;text-align:center;width:100%;box-sizing:border-box;padding:.5rem;margin:.5rem 0 1rem;border:1px solid #888;border-radius:.375rem}
.error{color:#b00020}code.user-code{font-size:1.5rem;letter-spacing:.1em}</style></head>
<body><main>
${body}
</main></body></html>`;
}
