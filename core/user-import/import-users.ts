import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { component } from '../operations/output.ts';
import { QueryBooleanSchema } from '../lib/schemas.ts';
import { importBatch } from './import-batch.ts';

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
 * Bulk user import, admin access: a batch of lines of Gatehouse's NDJSON import
 * format (core/user-import/record.ts), each answered on its own line number (`first_line` is the
 * number of `lines[0]` in the caller's file, default 1). A file of any size goes as successive
 * calls of at most IMPORT_LINES_MAX lines (the `gatehouse import` CLI streams the file that way),
 * so neither side holds more than one batch. `dry_run=true` checks everything and writes nothing;
 * `allow_insecure_hashes=true` admits legacy MD5 / SHA-256 digests. Re-running an import updates
 * the users it created (by `id` or `source_id`), never duplicates them.
 */
export const importUsers = defineOperation({
  id: 'userImport.import',
  method: 'POST',
  path: '/internal/users/import',
  summary: 'Import a batch of users (and teams) given as NDJSON lines; answers a result per line.',
  access: ['admin'],
  input: {
    query: v.strictObject({ dry_run: v.optional(QueryBooleanSchema), allow_insecure_hashes: v.optional(QueryBooleanSchema) }),
    body: v.strictObject({
      first_line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      lines: v.pipe(v.array(v.string()), v.maxLength(IMPORT_LINES_MAX, `must hold at most ${IMPORT_LINES_MAX} lines`)),
    }),
  },
  errors: [],
  output: ImportResultOutput,
  async run(ctx, { query, body }) {
    const dryRun = query.dry_run === true;
    const results = await importBatch(ctx, ctx.auth.project, body.lines, body.first_line ?? 1, {
      dryRun,
      allowInsecureHashes: query.allow_insecure_hashes === true,
    });
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
