import * as v from 'valibot';
import { defineOperation, reply } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { isUuid } from '../lib/random.ts';
import { QueryBooleanSchema } from '../lib/schemas.ts';
import { findProject } from '../projects/index.ts';
import { projectJwks } from '../tokens/access-token.ts';
import { component } from '../operations/output.ts';

/** A JSON Web Key Set of ES256 public keys (RFC 7517 §5; RFC 7518 §6.2.1). */
const JwksOutput = component(
  'Jwks',
  v.strictObject({
    keys: v.array(
      v.strictObject({
        kty: v.literal('EC'),
        alg: v.literal('ES256'),
        crv: v.literal('P-256'),
        kid: v.string(),
        x: v.string(),
        y: v.string(),
      }),
    ),
  }),
);

/** The JWKS routes' path parameters. */
export const ProjectParams = v.strictObject({ project_id: v.string() });
/** The JWKS routes' query: which extra key sets to include. */
export const JwksQuery = v.strictObject({
  include_restricted: v.optional(QueryBooleanSchema),
  include_anonymous: v.optional(QueryBooleanSchema),
});

/**
 * The project's public ES256 keys (no auth): 2, or 4
 * with `include_restricted`, or 6 with `include_anonymous`; cached an hour by clients
 * (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx "JWKS"). Unknown project → 404 text.
 */
export const jwks = defineOperation({
  id: 'meta.jwks',
  method: 'GET',
  path: '/projects/:project_id/.well-known/jwks.json',
  summary: "The project's JSON Web Key Set.",
  access: 'public',
  input: { params: ProjectParams, query: JwksQuery },
  errors: [],
  output: JwksOutput,
  async run(ctx, { params, query }) {
    const project =
      params.project_id === INTERNAL_PROJECT_ID || isUuid(params.project_id) ? await findProject(ctx.db, params.project_id) : null;
    if (!project) throw new StatusError('not-found', 'Project not found.');
    const body = projectJwks(ctx.runtime.keys, project.id, {
      includeRestricted: query.include_restricted ?? false,
      includeAnonymous: query.include_anonymous ?? false,
    });
    return reply.json(body, { cacheFor: 3600 });
  },
});
