import pino from 'pino';
import type { Logger } from '../../core/index.ts';

/**
 * A structured logger (pino) writing one JSON object per line to stdout, or to `write` when
 * given: `{"level":"info","time":"<ISO 8601>","pid":…,"hostname":…,"msg":…, …fields}`. Request
 * lines carry `request_id` (also sent as the `x-stack-request-id` header). `silent` writes
 * nothing.
 */
export function createJsonLogger(level: 'info' | 'warn' | 'error' | 'silent' = 'info', write?: (line: string) => void): Logger {
  const options: pino.LoggerOptions = {
    level,
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  const logger = write ? pino(options, { write }) : pino(options, pino.destination({ dest: 1, sync: true }));
  return {
    info: (fields, message) => logger.info(fields, message),
    warn: (fields, message) => logger.warn(fields, message),
    error: (fields, message) => logger.error(fields, message),
  };
}
