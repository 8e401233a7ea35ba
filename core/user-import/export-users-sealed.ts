import * as v from 'valibot';
import { defineOperation, reply } from '../operations/define.ts';
import { NdjsonOutput } from '../operations/output.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { deriveExportKey, EXPORT_PASSPHRASE_MIN_LENGTH, newExportSalt } from './export-secrets.ts';
import { exportStream } from './export-stream.ts';

/**
 * The export of `GET /internal/users/export` with each user's password hash and TOTP secret sealed
 * under a passphrase (a scrypt key, AES-256-GCM per user), so neither the wire nor the
 * file carries them in the clear. A POST so the passphrase travels in the body, never in a URL or
 * an access log. Resuming (`cursor`) passes back the header's `salt`, so the whole file opens with
 * one key.
 */
export const exportUsersSealed = defineOperation({
  id: 'userImport.exportSealed',
  method: 'POST',
  path: '/internal/users/export',
  summary: 'Export the project’s teams and users as NDJSON with password hashes and TOTP secrets sealed under a passphrase.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      passphrase: v.pipe(
        v.string(),
        v.minLength(EXPORT_PASSPHRASE_MIN_LENGTH, `must be at least ${EXPORT_PASSPHRASE_MIN_LENGTH} characters`),
        v.maxLength(1024),
      ),
      cursor: v.optional(UuidSchema),
      salt: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/, 'must be the 16-byte base64url salt of the export’s header'))),
    }),
  },
  errors: [],
  output: NdjsonOutput,
  async run(ctx, { body }) {
    const salt = body.salt ?? newExportSalt();
    const key = await deriveExportKey(body.passphrase, salt);
    return reply.ndjson(exportStream(ctx, ctx.auth.project, body.cursor ?? null, { key, salt }));
  },
});
