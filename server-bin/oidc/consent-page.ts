/** What the consent page shows. */
export interface ConsentPageInput {
  projectName: string;
  clientName: string;
  /** An https logo URL of the client, or null. */
  logoUri: string | null;
  /** The scopes asked for that the user has not granted yet. */
  scopes: string[];
  /** Absolute URLs the Allow and Deny buttons post to. */
  confirmAction: string;
  abortAction: string;
}

const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are (your user id)',
  profile: 'See your name and profile picture',
  email: 'See your email address',
  offline_access: 'Stay signed in (keep access when you are away)',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The identity provider's consent page (plain HTML, no script): the client's name and logo, the
 * scopes it asks for, Allow and Deny. Everything shown is escaped; the logo is shown only for an
 * https URL.
 */
export function consentPage(input: ConsentPageInput): string {
  const logo = input.logoUri?.startsWith('https://') ? `<img src="${escapeHtml(input.logoUri)}" alt="" width="48" height="48">` : '';
  const scopes = input.scopes.map((scope) => `<li><code>${escapeHtml(scope)}</code> ${escapeHtml(SCOPE_TEXT[scope] ?? '')}</li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorize ${escapeHtml(input.clientName)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#111}
button{font:inherit;padding:.5rem 1.25rem;margin-right:.5rem;border-radius:.375rem;border:1px solid #888;background:#fff}
button[value=allow]{background:#111;color:#fff;border-color:#111}form{display:inline}</style></head>
<body><main>
${logo}
<h1 id="consent-title">${escapeHtml(input.clientName)} wants to access your ${escapeHtml(input.projectName)} account</h1>
<p>It asks to:</p>
<ul id="consent-scopes">${scopes}</ul>
<form method="post" action="${escapeHtml(input.confirmAction)}"><button type="submit" name="decision" value="allow" id="consent-allow">Allow</button></form>
<form method="post" action="${escapeHtml(input.abortAction)}"><button type="submit" name="decision" value="deny" id="consent-deny">Deny</button></form>
</main></body></html>`;
}
