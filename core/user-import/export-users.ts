import * as v from 'valibot';
import { defineOperation, reply } from '../operations/define.ts';
import { NdjsonOutput } from '../operations/output.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { exportStream } from './export-stream.ts';

/**
 * Exports a project's teams and users as NDJSON in Gatehouse's import format (docs/migrating.md):
 * a header line, every team, every user by id, then `{"type":"end"}`; streamed page by page with
 * flat memory, admin access. Resumable: `cursor` is the id of the last user received, and the
 * answer continues after it (teams only come when there is no cursor). No password hashes or TOTP
 * secrets: `POST` the same path with a passphrase for those. Anonymous users are not exported.
 */
export const exportUsers = defineOperation({
  id: 'userImport.export',
  method: 'GET',
  path: '/internal/users/export',
  summary: 'Export the project’s teams and users as NDJSON (no secrets); resumable with `cursor`.',
  access: ['admin'],
  input: { query: v.strictObject({ cursor: v.optional(UuidSchema) }) },
  errors: [],
  output: NdjsonOutput,
  async run(ctx, { query }) {
    return reply.ndjson(exportStream(ctx, ctx.auth.project, query.cursor ?? null, null));
  },
});
