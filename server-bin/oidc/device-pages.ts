import { escapeHtml, providerPage, providerPageCsp } from './provider-page.ts';

/** The part of oidc-provider's Koa context the device pages write. */
interface PageContext {
  body?: unknown;
  type?: string;
  set(name: string, value: string): void;
  oidc?: { client?: { clientName?: string; clientId?: string } };
}

function render(ctx: PageContext, title: string, body: string): void {
  ctx.type = 'html';
  ctx.set('content-security-policy', providerPageCsp());
  ctx.set('cache-control', 'no-store');
  ctx.body = providerPage(title, body);
}

/** Why the code page is shown again (oidc-provider's re-render errors), in words for the user. */
function codeProblem(error: { name?: string; userCode?: string } | undefined): string {
  if (!error) return '';
  if (error.name === 'AbortedError') return 'The sign-in on the device was cancelled.';
  if (error.name === 'ExpiredError') return 'This code has expired. Start again on the device.';
  if (error.name === 'AlreadyUsedError') return 'This code has already been used.';
  if (error.userCode || error.name === 'NoCodeError' || error.name === 'NotFoundError')
    return 'That code is not right. Check it and try again.';
  return 'Something went wrong. Start again on the device.';
}

/**
 * RFC 8628 §3.3's user-code page (oidc-provider `features.deviceFlow.userCodeInputSource`): the
 * provider's form (its anti-forgery field and the `user_code` input) in the provider pages' look,
 * with a message when a submitted code was refused.
 */
export async function userCodeInputSource(
  ctx: PageContext,
  form: string,
  _out: unknown,
  error?: { name?: string; userCode?: string },
): Promise<void> {
  const problem = codeProblem(error);
  render(
    ctx,
    'Connect a device',
    `<h1 id="device-title">Connect a device</h1>
<p>Enter the code shown on your device.</p>
${problem ? `<p class="error" id="device-error" role="alert">${escapeHtml(problem)}</p>` : ''}
${form}
<button type="submit" class="primary" form="op.deviceInputForm" id="device-continue">Continue</button>`,
  );
}

/**
 * The confirmation step (`userCodeConfirmSource`): names the client and repeats the code so the
 * user checks it matches the device before signing in; Continue or Cancel (which refuses the
 * device with `access_denied`).
 */
export async function userCodeConfirmSource(
  ctx: PageContext,
  form: string,
  client: { clientName?: string; clientId: string },
  _deviceInfo: unknown,
  userCode: string,
): Promise<void> {
  const name = client.clientName ?? client.clientId;
  render(
    ctx,
    `Connect ${name}`,
    `<h1 id="device-title">Connect ${escapeHtml(name)}?</h1>
<p>Check that your device shows this code:</p>
<p><code class="user-code" id="device-user-code">${escapeHtml(userCode)}</code></p>
<p>If you did not start this on a device of yours, or the code differs, cancel.</p>
${form}
<button type="submit" class="primary" form="op.deviceConfirmForm" id="device-confirm">Continue</button>
<button type="submit" form="op.deviceConfirmForm" name="abort" value="yes" id="device-abort">Cancel</button>`,
  );
}

/** The last page (`successSource`): the device is connected; the user may close the page. */
export async function successSource(ctx: PageContext): Promise<void> {
  const name = ctx.oidc?.client?.clientName ?? ctx.oidc?.client?.clientId ?? 'The device';
  render(
    ctx,
    'Device connected',
    `<h1 id="device-title">Device connected</h1>
<p id="device-success">${escapeHtml(name)} is signed in. You can close this page and return to your device.</p>`,
  );
}
