import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const Millis = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * Accepts a batch of 1 to 500 analytics events and stores none (`inserted: 0`). The official `@stackframe/js` SDK uploads its auto-captured `$page-view`
 * and `$click` events here on every page; Gatehouse has no analytics app, and upstream answers
 * exactly this (`{inserted: 0}`, nothing stored) when a project's analytics app is not enabled
 * (stack-auth `https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/analytics/events/batch/route.tsx`). The body is
 * still validated as upstream does (UUIDs, integer milliseconds, known event types).
 * Without this route the SDK logs a 404 on every page.
 */
export const uploadEventBatch = defineOperation({
  id: 'analytics.uploadEventBatch',
  method: 'POST',
  path: '/analytics/events/batch',
  summary: 'Accept a batch of auto-captured analytics events (none are stored).',
  access: ['client', 'server', 'admin'],
  // @stackframe/js 2.8.108 gzips the batch and sends it as application/octet-stream.
  gzippedJsonBody: true,
  input: {
    body: v.strictObject({
      session_replay_segment_id: v.pipe(v.string(), v.regex(UUID, 'Invalid session_replay_segment_id')),
      batch_id: v.pipe(v.string(), v.regex(UUID, 'Invalid batch_id')),
      sent_at_ms: Millis,
      events: v.pipe(
        v.array(
          v.strictObject({
            event_type: v.picklist(['$page-view', '$click']),
            event_at_ms: Millis,
            data: v.unknown(),
          }),
        ),
        v.minLength(1),
        v.maxLength(500),
      ),
    }),
  },
  errors: [],
  output: v.strictObject({ inserted: v.literal(0) }),
  async run() {
    return { inserted: 0 };
  },
});
