import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { component } from '../operations/output.ts';
import { connectionForEmail } from './email-routing.ts';
import { projectHasConnections } from './queries.ts';

/**
 * Home-realm discovery for sign-in pages: `sso_available` says whether the project has any SSO
 * connection (then a sign-in page asks for the address first); with `email`, `sso` says whether
 * that address signs in through a team's connection (a connection of the team that verified its
 * domain, or one listing the domain), in which case the page starts `/auth/sso/authorize` with
 * the address. Answers only booleans: no team, connection or IdP is named.
 */
export const discoverSso = defineOperation({
  id: 'sso.discover',
  method: 'GET',
  path: '/auth/sso/discovery',
  summary: 'Whether the project has SSO, and whether an address signs in through it (home-realm discovery).',
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ email: v.optional(v.pipe(v.string(), v.maxLength(320))) }) },
  errors: [],
  output: component('SsoDiscovery', v.strictObject({ sso_available: v.boolean(), sso: v.boolean() })),
  async run(ctx, { query }) {
    const projectId = ctx.auth.project.id;
    const available = await projectHasConnections(ctx.db, projectId);
    const sso = available && query.email !== undefined && (await connectionForEmail(ctx.db, projectId, query.email)) !== null;
    return { sso_available: available, sso };
  },
});
