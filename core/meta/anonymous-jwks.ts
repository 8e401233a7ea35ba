import { defineOperation, reply } from '../operations/define.ts';
import { RedirectOutput } from '../operations/output.ts';
import { API_PREFIX } from '../operations/api-path.ts';
import { JwksQuery, ProjectParams } from './jwks.ts';

/** Redirects to the JWKS with anonymous keys. */
export const anonymousJwks = defineOperation({
  id: 'meta.jwksAnonymous',
  method: 'GET',
  path: '/projects-anonymous-users/:project_id/.well-known/jwks.json',
  summary: 'Redirect to the JWKS including anonymous-user keys.',
  access: 'public',
  input: { params: ProjectParams, query: JwksQuery },
  errors: [],
  output: RedirectOutput,
  async run(_ctx, { params }) {
    return reply.redirect(`${API_PREFIX}/projects/${encodeURIComponent(params.project_id)}/.well-known/jwks.json?include_anonymous=true`);
  },
});
