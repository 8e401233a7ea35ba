import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { HtmlOutput } from '../operations/output.ts';
import { AuthorizeEntries, checkClient, page } from './dev-provider.ts';

/** The development provider's page to pick a test identity (OIDC Core §3.1.2.1 request). */
export const devProviderAuthorizePage = defineOperation({
  id: 'authOauth.devProviderAuthorizePage',
  method: 'GET',
  path: '/auth/oauth/dev-provider/authorize',
  summary: 'Built-in development OpenID provider: pick a test identity.',
  access: 'public',
  input: { query: v.strictObject(AuthorizeEntries) },
  errors: ['INVALID_OAUTH_CLIENT_ID_OR_SECRET', 'REDIRECT_URL_NOT_WHITELISTED', 'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION'],
  output: HtmlOutput,
  async run(ctx, { query }) {
    await checkClient(ctx, query.client_id, query.redirect_uri);
    return page(query);
  },
});
