import assert from 'node:assert/strict';
import { it } from 'node:test';
import { api, assertKnownError, createProject, internal } from '../test/helpers/api.ts';
import { describeWithServer } from '../test/helpers/suite.ts';
import { matchHostedPath } from './hosted-pages.ts';
import { hostedUrls } from '../ui/hosted/config.ts';

describeWithServer('hosted handler pages', (get) => {
  it('serves /handler/* for the internal project with its name and inline config', async () => {
    const res = await fetch(`${get().url}/handler/sign-in?after_auth_return_to=%2F`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    const html = await res.text();
    const config = JSON.parse(/window.__GATEHOUSE__=(.*?);<\/script>/.exec(html)![1]!);
    assert.equal(config.projectId, 'internal');
    assert.equal(config.handlerPath, '/handler');
    assert.equal(config.serverPath, '/handler/sign-in');
    assert.equal(config.home, '/');
    const current = await api(get(), 'GET', '/projects/current', internal.client);
    assert.deepEqual(
      config.clientProject,
      current.body,
      'the public settings GET /projects/current answers, inlined so the form needs no request',
    );
    assert.match(html, /\/handler\/handler\.js\?v=[0-9a-f]{16}/);
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.equal(html.match(/<script nonce="([^"]+)">/g)?.length, 2, 'two inline scripts: the config, and the one holding early submits');
    assert.ok(html.includes(`<script nonce="${nonce}">`));
    assert.equal(html.match(/<script /g)?.length, 3, 'the config, the bundle and the early-submit script');
    const head = html.slice(0, html.indexOf('<body>'));
    assert.match(head, /<script nonce="[^"]+">\(function\(\)\{var d=document/, 'the early-submit script listens before the form is parsed');
    assert.equal(
      html.split(` nonce="${nonce}"`).length - 1,
      html.match(/<script |<link rel="modulepreload"/g)?.length,
      'every script and preload carries the nonce',
    );
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /frame-src https:\/\/challenges\.cloudflare\.com(;|$)/, "Turnstile's challenge frame is the only frame source");
    const again = await fetch(`${get().url}/handler/sign-in`);
    assert.notEqual(/'nonce-([^']+)'/.exec(again.headers.get('content-security-policy') ?? '')?.[1], nonce, 'a fresh nonce per response');
    await again.text();
  });

  it('serves /projects/{id}/handler/* for another project, with its trusted domains as redirect origins', async () => {
    const { projectId } = await createProject(
      get(),
      { domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] },
      { display_name: 'Rocket <App>' },
    );
    const res = await fetch(`${get().url}/projects/${projectId}/handler/account-settings`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<title>Rocket &#60;App&#62;<\/title>/, 'the name is escaped in HTML');
    const config = JSON.parse(/window.__GATEHOUSE__=(.*?);<\/script>/.exec(html)![1]!);
    assert.equal(config.projectId, projectId);
    assert.equal(config.project.displayName, 'Rocket <App>');
    assert.ok(!html.includes('"Rocket <App>"'), 'no raw < inside the inline script');
    assert.deepEqual(config.trustedOrigins, ['https://app.example.com']);
    assert.equal(config.home, 'https://app.example.com');
  });

  it('gives a project without a trusted domain no home, so its users stay on its hosted pages', async () => {
    const { projectId } = await createProject(get());
    const html = await (await fetch(`${get().url}/projects/${projectId}/handler/sign-in`)).text();
    const config = JSON.parse(/window.__GATEHOUSE__=(.*?);<\/script>/.exec(html)![1]!);
    assert.equal(config.home, null);
    const handler = `/projects/${projectId}/handler`;
    assert.deepEqual(hostedUrls(config, '', handler), {
      handler,
      home: `${handler}/account-settings`,
      afterSignIn: `${handler}/account-settings`,
      afterSignUp: `${handler}/account-settings`,
      afterSignOut: `${handler}/sign-in`,
    });
    assert.deepEqual(
      hostedUrls({ home: '/' }, '/auth', '/auth/handler'),
      { handler: '/auth/handler', home: '/auth/' },
      'the internal home honours the mount prefix',
    );
  });

  it('carries the branding set in the project config (Gatehouse extension) into the hosted page, refusing bad values', async () => {
    const { projectId, admin } = await createProject(get());
    const bad = await api(get(), 'PATCH', '/internal/projects/current', admin, { config: { branding: { accent_color_light: 'red' } } });
    assertKnownError(bad, 'SCHEMA_ERROR', 400);
    const badUrl = await api(get(), 'PATCH', '/internal/projects/current', admin, {
      config: { branding: { terms_of_service_url: 'javascript:alert(1)' } },
    });
    assertKnownError(badUrl, 'SCHEMA_ERROR', 400);
    const ok = await api(get(), 'PATCH', '/internal/projects/current', admin, {
      config: { branding: { accent_color_light: '#0F766E', terms_of_service_url: 'https://example.com/terms' } },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.config.branding, {
      accent_color_light: '#0f766e',
      accent_color_dark: null,
      terms_of_service_url: 'https://example.com/terms',
      privacy_policy_url: null,
    });
    const partial = await api(get(), 'PATCH', '/internal/projects/current', admin, {
      config: { branding: { accent_color_dark: '#5eead4' } },
    });
    assert.equal(partial.body.config.branding.accent_color_light, '#0f766e', 'keys left out keep their value');
    const html = await (await fetch(`${get().url}/projects/${projectId}/handler/sign-in`)).text();
    const config = JSON.parse(/window.__GATEHOUSE__=(.*?);<\/script>/.exec(html)![1]!);
    assert.deepEqual(config.project, {
      displayName: 'New Project',
      logoUrl: null,
      accentLight: '#0f766e',
      accentDark: '#5eead4',
      termsUrl: 'https://example.com/terms',
      privacyUrl: null,
    });
    const client = await api(get(), 'GET', '/projects/current', { projectId, accessType: 'client' });
    assert.equal('branding' in client.body.config, false, "the client project view keeps upstream's shape");
  });

  it('answers 404 for an unknown project', async () => {
    const res = await fetch(`${get().url}/projects/0b9c7e2a-5d1e-4c3b-9a8f-7e6d5c4b3a21/handler/sign-in`);
    assert.equal(res.status, 404);
    assert.match(await res.text(), /does not exist/);
  });

  it('serves the bundle as JavaScript, immutable when versioned', async () => {
    const html = await (await fetch(`${get().url}/handler/sign-in`)).text();
    const src = new URL(/"(\.\.\/handler\/handler\.js\?v=[0-9a-f]+)"/.exec(html)![1]!, `${get().url}/handler/sign-in`).href;
    const res = await fetch(src);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    assert.match(res.headers.get('cache-control') ?? '', /immutable/);
    assert.ok((await res.text()).length > 1000);
    const { request } = await import('node:http');
    const raw = await new Promise<{ encoding: string | undefined; bytes: number }>((resolve, reject) => {
      request(src, { headers: { 'accept-encoding': 'gzip' } }, (r) => {
        let bytes = 0;
        r.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        r.on('end', () => resolve({ encoding: r.headers['content-encoding'], bytes }));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(raw.encoding, 'gzip');
    assert.ok(raw.bytes < 80 * 1024, `the gzipped bundle is ${raw.bytes} bytes, over the 80 KB target`);
  });

  it('inlines whether the project has SSO, and preloads the chunks the bundle imports (content-hashed, immutable)', async () => {
    const html = await (await fetch(`${get().url}/handler/sign-in`)).text();
    const config = JSON.parse(/window.__GATEHOUSE__=(.*?);<\/script>/.exec(html)![1]!);
    assert.equal(config.ssoAvailable, false, 'GET /auth/sso/discovery answered in the page');
    // Static tags (the preload scanner sees them), at URLs relative to the page (any mount prefix).
    const nonce = /<script nonce="([^"]+)">window/.exec(html)![1]!;
    const preload = [...html.matchAll(/<link rel="modulepreload" href="\.\.\/([^"]+)" nonce="([^"]+)">/g)].map((m) => {
      assert.equal(m[2], nonce, 'a modulepreload link carries the nonce');
      return `/${m[1]}`;
    });
    assert.ok(preload.length > 0, 'the chunks sign-in needs are preloaded');
    const script = /<script type="module" src="\.\.\/(handler\/handler\.js\?v=[0-9a-f]+)" nonce="([^"]+)"><\/script>/.exec(html)!;
    assert.equal(script[2], nonce);
    const entry = await (await fetch(`${get().url}/${script[1]}`)).text();
    for (const path of preload) {
      assert.match(path, /^\/handler\/chunks\/[\w-]+\.js$/);
      const res = await fetch(`${get().url}${path}`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /javascript/);
      assert.match(res.headers.get('cache-control') ?? '', /immutable/);
      await res.text();
    }
    for (const imported of entry.matchAll(/from"\.\/(chunks\/[\w-]+\.js)"/g))
      assert.ok(preload.includes(`/handler/${imported[1]}`), `${imported[1]} is preloaded`);
    const missing = await fetch(`${get().url}/handler/chunks/nope-ABC.js`);
    assert.equal(missing.status, 404, 'only the chunks of the build are served');
    await missing.text();
    // Any other path under /handler is a hosted page (the error page), never a file of the build.
    assert.doesNotMatch(await (await fetch(`${get().url}/handler/handler.json`)).text(), /"preload"/);
  });

  it('sends sign-in and sign-up rendered (in the language asked for), with their style sheet; other pages render in the browser', async () => {
    const signIn = await (await fetch(`${get().url}/handler/sign-in`)).text();
    assert.match(
      signIn,
      /<div id="root" data-server-rendered>.*<form[^>]*aria-label="Sign in with email and password".*<input[^>]*type="email"/s,
    );
    assert.match(signIn, /<style data-gatehouse>[^<]*\.gh-root/);
    const german = await (await fetch(`${get().url}/handler/sign-up`, { headers: { 'accept-language': 'de-DE,de;q=0.9' } })).text();
    assert.match(german, /<html lang="de">/);
    assert.match(german, /data-server-rendered>.*<input[^>]*type="email"/s);
    assert.ok(german.includes('Passwort'), 'the German labels');
    const asked = await (await fetch(`${get().url}/handler/sign-in?lang=de`)).text();
    assert.match(asked, /<html lang="de">/, '?lang= wins over the header');
    const signedIn = await (await fetch(`${get().url}/handler/sign-in`, { headers: { cookie: 'gatehouse-refresh-internal=x' } })).text();
    assert.match(signedIn, /<div id="root"><noscript>/, 'a visitor with a session: the page script shows their state');
    const forgot = await (await fetch(`${get().url}/handler/forgot-password`)).text();
    assert.match(forgot, /<div id="root"><noscript>/, 'rendered by the page script, as before');
    assert.doesNotMatch(forgot, /data-gatehouse/);
  });

  it('leaves POSTs and API paths alone', async () => {
    const post = await fetch(`${get().url}/handler/sign-in`, { method: 'POST' });
    await post.text();
    assert.equal(post.status, 404);
    assert.equal(matchHostedPath('/api/v1/handler'), null);
    assert.equal(matchHostedPath('/projects/not-a-uuid/handler/sign-in'), null);
    assert.deepEqual(matchHostedPath('/handler'), { projectId: 'internal', handlerPath: '/handler' });
  });
});
