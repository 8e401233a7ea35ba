import assert from 'node:assert/strict';
import { it } from 'node:test';
import { pageShell, relativeToPage } from './page-shell.ts';

it('names our scripts relative to the page, so they resolve under any mount prefix', () => {
  for (const prefix of ['', '/auth', '/a/b']) {
    for (const serverPath of ['/', '/handler', '/handler/sign-in', '/handler/sign-in/', '/projects/p1/handler/account-settings/teams']) {
      for (const path of ['/handler/handler.js?v=0123', '/dashboard-assets/dashboard.js']) {
        const url = new URL(relativeToPage(serverPath, path), `https://example.com${prefix}${serverPath}`);
        assert.equal(url.pathname + url.search, prefix + path, `${prefix} ${serverPath} ${path}`);
      }
    }
  }
});

it('loads the bundle and the chunks it imports with static tags under the nonce (no loader script)', () => {
  const html = pageShell({
    title: 'T',
    style: '',
    globalName: '__X__',
    config: {},
    serverPath: '/handler/sign-in',
    scriptPath: '/handler/handler.js',
    hash: 'abc',
    preload: ['/handler/chunks/chunk-A.js'],
    nonce: 'N0',
    noscript: 'JS',
  });
  assert.match(html, /<script type="module" src="\.\.\/handler\/handler\.js\?v=abc" nonce="N0"><\/script>/);
  assert.match(html, /<link rel="modulepreload" href="\.\.\/handler\/chunks\/chunk-A\.js" nonce="N0">/);
  assert.equal(html.match(/<script/g)?.length, 2, 'the config and the bundle');
});
