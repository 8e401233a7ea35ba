import type { ProjectKeyValues } from '../core/index.ts';

/**
 * The address to open in a browser for `baseUrl`: a loopback IP (127.x.x.x, [::1]) becomes
 * `localhost`, the same server, because WebAuthn refuses IP addresses as relying-party ids
 * (WebAuthn L3 §5.1.3: passkeys fail with "This is an invalid domain" on http://127.0.0.1).
 * Other URLs are returned as given, without a trailing slash.
 */
export function browserUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return base;
  }
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname) && url.hostname !== '[::1]') return base;
  url.hostname = 'localhost';
  return url.toString().replace(/\/+$/, '');
}

/**
 * What a developer should do after the first start: the keys belong to the
 * internal project (the dashboard's own), so name the step that gives an app keys of its own.
 * `baseUrl` is the public URL (with any mount path), printed as `browserUrl` gives it. With `keys`
 * (the CLI's notice) the secret values are shown; with null (library mode's default notice,
 * written to the host app's stderr, where logs are collected) they are not, and the notice says
 * where the program can read them.
 */
export function firstStartNotice(baseUrl: string, keys: ProjectKeyValues | null): string[] {
  const base = browserUrl(baseUrl);
  const shown = keys
    ? [
        'Keys of the internal project, shown this once (save them; new ones can be made in the dashboard):',
        '  STACK_PROJECT_ID=internal',
        `  STACK_PUBLISHABLE_CLIENT_KEY=${keys.publishable_client_key ?? ''}`,
        `  STACK_SECRET_SERVER_KEY=${keys.secret_server_key ?? ''}`,
        `  STACK_SUPER_SECRET_ADMIN_KEY=${keys.super_secret_admin_key ?? ''}`,
      ]
    : [
        "Gatehouse generated the internal project's keys on this first start; they are not printed.",
        'Your code can read them once from `gatehouse.core.generatedKeys` (new ones can be made in the dashboard).',
      ];
  return [
    ...shown,
    '',
    "Next step: these keys are the dashboard's own. Open the dashboard at",
    `  ${base}/`,
    "sign up (the first account owns it), create a project for your app, and create that project's",
    `keys on its "Project keys" page. Point your app's SDK at baseUrl ${base} (without /api/v1);`,
    "the project's hosted pages are at",
    `  ${base}/projects/<project id>/handler/sign-in`,
  ];
}
