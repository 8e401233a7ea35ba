import pino from 'pino';
import type { Logger } from '../core/index.ts';

/**
 * Most bytes of log lines held in memory while stdout is not being read (1 MiB, a few thousand
 * request lines). Past it, new lines are dropped rather than blocking the process.
 */
export const LOG_BUFFER_BYTES = 1024 * 1024;

/**
 * A structured logger (pino) writing one JSON object per line to stdout, or to `write` when
 * given: `{"level":"info","time":"<ISO 8601>","pid":…,"hostname":…,"msg":…, …fields}`. Request
 * lines carry `request_id` (also sent as the `x-stack-request-id` header). `silent` writes
 * nothing.
 *
 * Writing to stdout never blocks the event loop: lines go through pino's asynchronous
 * destination (sonic-boom, `sync: false`), which writes from libuv's thread pool and retries on
 * EAGAIN; while the reader of stdout is stalled (a full pipe), lines accumulate up to
 * {@link LOG_BUFFER_BYTES} and later ones are dropped. A synchronous destination would freeze the
 * whole server once a pipe nobody reads fills (about 160 request lines).
 */
export function createJsonLogger(level: 'info' | 'warn' | 'error' | 'silent' = 'info', write?: (line: string) => void): Logger {
  const options: pino.LoggerOptions = {
    level,
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  const logger = write ? pino(options, { write }) : pino(options, pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_BYTES }));
  return {
    info: (fields, message) => logger.info(fields, message),
    warn: (fields, message) => logger.warn(fields, message),
    error: (fields, message) => logger.error(fields, message),
  };
}
