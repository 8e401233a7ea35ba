import { escapeHtml, providerPage } from './provider-page.ts';

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

/**
 * The identity provider's consent page (plain HTML, no script): the client's name and logo, the
 * scopes it asks for, Allow and Deny. Everything shown is escaped; the logo is shown only for an
 * https URL.
 */
export function consentPage(input: ConsentPageInput): string {
  const logo = input.logoUri?.startsWith('https://') ? `<img src="${escapeHtml(input.logoUri)}" alt="" width="48" height="48">` : '';
  const scopes = input.scopes.map((scope) => `<li><code>${escapeHtml(scope)}</code> ${escapeHtml(SCOPE_TEXT[scope] ?? '')}</li>`).join('');
  return providerPage(
    `Authorize ${input.clientName}`,
    `${logo}
<h1 id="consent-title">${escapeHtml(input.clientName)} wants to access your ${escapeHtml(input.projectName)} account</h1>
<p>It asks to:</p>
<ul id="consent-scopes">${scopes}</ul>
<form method="post" action="${escapeHtml(input.confirmAction)}"><button type="submit" name="decision" value="allow" id="consent-allow">Allow</button></form>
<form method="post" action="${escapeHtml(input.abortAction)}"><button type="submit" name="decision" value="deny" id="consent-deny">Deny</button></form>`,
  );
}
