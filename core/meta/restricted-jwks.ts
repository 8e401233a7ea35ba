import { defineOperation, reply } from '../operations/define.ts';
import { RedirectOutput } from '../operations/output.ts';
import { API_PREFIX } from '../operations/api-path.ts';
import { JwksQuery, ProjectParams } from './jwks.ts';

/** Redirects to the JWKS with restricted keys. */
export const restrictedJwks = defineOperation({
  id: 'meta.jwksRestricted',
  method: 'GET',
  path: '/projects-restricted-users/:project_id/.well-known/jwks.json',
  summary: 'Redirect to the JWKS including restricted-user keys.',
  access: 'public',
  input: { params: ProjectParams, query: JwksQuery },
  errors: [],
  output: RedirectOutput,
  async run(_ctx, { params }) {
    return reply.redirect(`${API_PREFIX}/projects/${encodeURIComponent(params.project_id)}/.well-known/jwks.json?include_restricted=true`);
  },
});
