import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';
import { authorizeUrl, exchangeCode, followCallback, newAppFlow, APP_ERROR_URL } from '../helpers/oauth-flow.ts';

// Sign-up rules on OAuth sign-up: the development provider's browser redirects, so a host test
// (the rules' other cases run in-process: core/sign-up-rules/sign-up-rules.test.ts).

let counter = 0;
const email = (local: string, domain = 'example.com') => `${local}-${Date.now().toString(36)}${counter++}@${domain}`;

describeWithServer('sign-up rules on OAuth sign-up', (get) => {
  it('applies the rules to OAuth sign-up (authMethod oauth, oauthProvider) and sends the browser to the error URL', async () => {
    const server = get();
    const { projectId, admin } = await createProject(server, {
      oauth_providers: [
        { id: 'github', type: 'shared' },
        { id: 'spotify', type: 'shared' },
      ],
    });
    const config = await api(server, 'PATCH', '/internal/config/override/branch', admin, {
      config_override_string: JSON.stringify({
        'auth.signUpRules.block-github': {
          enabled: true,
          displayName: 'block github',
          priority: 0,
          condition: 'authMethod == "oauth" && oauthProvider == "github"',
          action: { type: 'reject' },
        },
      }),
    });
    assert.equal(config.status, 200, config.text);
    const viaProvider = async (providerId: string, address: string) => {
      const flow = newAppFlow();
      const started = await fetch(authorizeUrl(server, providerId, projectId, flow, { stack_response_mode: 'json' }));
      const page = new URL(((await started.json()) as { location: string }).location);
      const form = new URLSearchParams(page.searchParams);
      form.set('email', address);
      const picked = await fetch(new URL(page.pathname, page), { method: 'POST', body: form, redirect: 'manual' });
      return { flow, back: await followCallback(picked.headers.get('location')!) };
    };
    const refused = await viaProvider('github', email('gh'));
    assert.equal(`${refused.back.origin}${refused.back.pathname}`, APP_ERROR_URL);
    assert.equal(refused.back.searchParams.get('errorCode'), 'SIGN_UP_REJECTED');
    const allowed = await viaProvider('spotify', email('sp'));
    const tokens = await exchangeCode(server, projectId, allowed.back.searchParams.get('code')!, allowed.flow.verifier);
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
  });
});
