import type { ProjectKeyValues } from '../core/internal-api-keys/generate.ts';

/**
 * The address to open in a browser for `baseUrl`: a loopback IP (127.x.x.x, [::1]) becomes
 * `localhost`, the same server, because WebAuthn refuses IP addresses as relying-party ids
 * (WebAuthn L3 §5.1.3: passkeys fail with "This is an invalid domain" on http://127.0.0.1).
 * Other URLs are returned as given, without a trailing slash.
 */
export function browserUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  let url: URL;
  try { url = new URL(base); } catch { return base; }
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname) && url.hostname !== '[::1]') return base;
  url.hostname = 'localhost';
  return url.toString().replace(/\/+$/, '');
}

/**
 * What a developer should do after the first start, printed by the CLI and by library mode
 * (issue 20 item 14): the printed keys belong to the internal project (the dashboard's own), so
 * name the step that gives an app keys of its own. `baseUrl` is the public URL (with any mount path).
 */
export function firstStartNotice(baseUrl: string, keys: ProjectKeyValues): string[] {
  const base = browserUrl(baseUrl);
  return [
    'Keys of the internal project, shown this once (save them; new ones can be made in the dashboard):',
    '  STACK_PROJECT_ID=internal',
    `  STACK_PUBLISHABLE_CLIENT_KEY=${keys.publishable_client_key ?? ''}`,
    `  STACK_SECRET_SERVER_KEY=${keys.secret_server_key ?? ''}`,
    `  STACK_SUPER_SECRET_ADMIN_KEY=${keys.super_secret_admin_key ?? ''}`,
    '',
    'Next step: these keys are the dashboard\'s own. Open the dashboard at',
    `  ${base}/`,
    'sign up (the first account owns it), create a project for your app, and create that project\'s',
    `keys on its "API keys" page. Point your app's SDK at baseUrl ${base} (without /api/v1);`,
    'the project\'s hosted pages are at',
    `  ${base}/projects/<project id>/handler/sign-in`,
  ];
}
