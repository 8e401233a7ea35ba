import * as v from 'valibot';
import { defineOperation, reply } from '../operations/define.ts';
import { component } from '../operations/output.ts';
import { QueryBooleanSchema } from '../lib/schemas.ts';
import { importBatch } from './import-batch.ts';
import { importStream } from './import-stream.ts';

/** Most lines one call takes (the whole body is also bounded by the host's body limit). */
export const IMPORT_LINES_MAX = 5_000;

const LineResultOutput = v.object({
  line: v.number(),
  status: v.picklist(['created', 'updated', 'would_create', 'would_update', 'failed']),
  type: v.optional(v.picklist(['user', 'team'])),
  id: v.optional(v.string()),
  error: v.optional(v.object({ code: v.string(), message: v.string() })),
});

/** The answer of an import call: one result per non-blank line, in line order, and the counts. */
export const ImportResultOutput = component(
  'UserImportResult',
  v.object({
    dry_run: v.boolean(),
    results: v.array(LineResultOutput),
    created: v.number(),
    updated: v.number(),
    failed: v.number(),
  }),
);

/**
 * Bulk user import, admin access, in Gatehouse's NDJSON import format (see the migration guide), two ways:
 * - streamed: an `application/x-ndjson` body (that media type), being the lines themselves, of any
 *   number. The answer is NDJSON too, written as the import goes: one result per non-blank line
 *   (`{"line","status","type","id"}`, or `"status":"failed"` with `error: {code, message}`), sent
 *   batch by batch as each batch commits, then a last `{"type":"summary",…}` line with the counts
 *   (and `error` when the import stopped early). Neither side holds more than a batch or two, so a
 *   file of millions of users passes with flat memory. `first_line` (query) numbers the body's
 *   first line (default 1), for a client that sends its file in several requests (one request
 *   must end within the server's request timeout).
 * - JSON: `{ first_line?, lines: [...] }`, at most IMPORT_LINES_MAX lines, answered with
 *   every result and the counts in one object (the dashboard's form).
 * `dry_run=true` checks everything and writes nothing; `allow_insecure_hashes=true` admits legacy
 * MD5 / SHA-256 digests. Re-running an import updates the users it created (found by their
 * `source_id`, kept on the user, or their `id`), never duplicates them.
 */
export const importUsers = defineOperation({
  id: 'userImport.import',
  method: 'POST',
  path: '/internal/users/import',
  summary: 'Import a batch of users (and teams) given as NDJSON lines; answers a result per line.',
  access: ['admin'],
  input: {
    query: v.strictObject({
      dry_run: v.optional(QueryBooleanSchema),
      allow_insecure_hashes: v.optional(QueryBooleanSchema),
      first_line: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,14}$/, 'must be a whole number from 1'), v.transform(Number))),
    }),
    body: v.strictObject({
      first_line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      lines: v.pipe(v.array(v.string()), v.maxLength(IMPORT_LINES_MAX, `must hold at most ${IMPORT_LINES_MAX} lines`)),
    }),
  },
  errors: [],
  ndjsonBody: true,
  output: ImportResultOutput,
  async run(ctx, { query, body, ndjson }) {
    const dryRun = query.dry_run === true;
    const options = { dryRun, allowInsecureHashes: query.allow_insecure_hashes === true };
    if (ndjson) return reply.ndjson(importStream(ctx, ctx.auth.project, ndjson, query.first_line ?? 1, options));
    const results = await importBatch(ctx, ctx.auth.project, body.lines, body.first_line ?? query.first_line ?? 1, options);
    const count = (...statuses: string[]) => results.filter((r) => statuses.includes(r.status)).length;
    return {
      dry_run: dryRun,
      results,
      created: count('created', 'would_create'),
      updated: count('updated', 'would_update'),
      failed: count('failed'),
    };
  },
});
