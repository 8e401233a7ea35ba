import type { OperationContext, ReplyStream } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { KnownError } from '../errors/index.ts';
import { HeapCeiling } from '../lib/heap-ceiling.ts';
import { checkBatch, importChecked, type ImportOptions, type LineResult } from './import-batch.ts';

/** Lines written per transaction of a streamed import (each batch's results are sent as it commits). */
export const STREAM_BATCH_LINES = 5_000;

/**
 * Heap growth the streamed imports allow before they ask V8 for a full collection
 * (core/lib/heap-ceiling.ts), checked every HEAP_CHECK_LINES lines read. One ceiling for the
 * process, made at the first import: a ceiling per request would start from whatever garbage the
 * previous request left.
 */
const HEAP_BUDGET_BYTES = 48 * 2 ** 20;
const HEAP_CHECK_LINES = 1_000;
let heap: HeapCeiling | undefined;

/** The last line of a streamed import's answer: the counts, and the error that stopped it, if any. */
export interface ImportStreamSummary {
  type: 'summary';
  dry_run: boolean;
  records: number;
  created: number;
  updated: number;
  failed: number;
  /** Set when the import stopped early (unreadable body, database failure): later lines were not imported. */
  error?: { code: string; message: string };
}

/**
 * The answer of a streamed import (NDJSON in, NDJSON out): reads the body's lines as they arrive,
 * imports them in batches of STREAM_BATCH_LINES (importBatch: one transaction each, per-record
 * failures reported on their line), and writes each batch's results, one JSON object per line
 * (`{"line":…,"status":…,"type":…,"id":…}` or with `error`), as soon as it is done; the next batch is
 * read from the request and parsed and checked meanwhile (checkBatch), so the database's checks and
 * writes of one batch overlap the parsing of the next. Ends with an {@link ImportStreamSummary} line. Memory holds two
 * batches whatever the body's size. Stops between batches when the client goes away.
 *
 * @param firstLine the line number of the body's first line in the caller's file (1-based).
 */
export function importStream(
  ctx: OperationContext,
  project: Project,
  lines: AsyncIterable<string>,
  firstLine: number,
  options: ImportOptions,
): ReplyStream {
  return async function* (signal) {
    const summary: ImportStreamSummary = { type: 'summary', dry_run: options.dryRun, records: 0, created: 0, updated: 0, failed: 0 };
    heap ??= new HeapCeiling(HEAP_BUDGET_BYTES);
    const written = (results: LineResult[]): string => {
      let out = '';
      for (const result of results) {
        summary.records++;
        if (result.status === 'failed') summary.failed++;
        else if (result.status === 'created' || result.status === 'would_create') summary.created++;
        else summary.updated++;
        out += `${JSON.stringify(result)}\n`;
      }
      return out;
    };
    let pending: Promise<LineResult[]> | null = null;
    const start = (checked: ReturnType<typeof checkBatch>) => {
      const running = importChecked(ctx, project, checked, options);
      running.catch(() => {}); // awaited below; not unhandled while the next batch is read
      return running;
    };
    try {
      let batch: string[] = [];
      let batchFirst = firstLine;
      for await (const text of lines) {
        batch.push(text);
        if (batch.length % HEAP_CHECK_LINES === 0) heap.check();
        if (batch.length < STREAM_BATCH_LINES) continue;
        // Parsed and checked while the previous batch's statements run (with PostgreSQL, on
        // the database's own process): only the database checks and writes wait for them.
        const checked = checkBatch(project, batch, batchFirst, options);
        batchFirst += batch.length;
        batch = [];
        if (pending) yield written(await pending);
        if (signal.aborted) return;
        pending = start(checked);
      }
      const last = batch.length > 0 ? checkBatch(project, batch, batchFirst, options) : null;
      if (pending) yield written(await pending);
      pending = null;
      if (last && !signal.aborted) yield written(await start(last));
    } catch (error) {
      if (signal.aborted) return; // the client went away mid-body
      if (pending) {
        const done = await pending.catch(() => null);
        if (done) yield written(done);
      }
      if (error instanceof KnownError) summary.error = { code: error.code, message: error.message };
      else {
        ctx.runtime.log.error({ err: (error as Error)?.stack ?? String(error), project_id: project.id }, 'import stopped');
        summary.error = { code: 'IMPORT_STOPPED', message: 'The import stopped on an unexpected error; later lines were not imported.' };
      }
    }
    yield `${JSON.stringify(summary)}\n`;
  };
}
