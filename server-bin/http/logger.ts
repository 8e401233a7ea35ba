import type { Logger } from '../../core/index.ts';

/**
 * A structured logger writing one JSON object per line (level, time, msg, fields) to stdout,
 * or nothing when `level` is `silent`.
 */
export function createJsonLogger(level: 'info' | 'warn' | 'error' | 'silent' = 'info', write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const order = { info: 0, warn: 1, error: 2, silent: 3 } as const;
  const emit = (lvl: 'info' | 'warn' | 'error') => (fields: Record<string, unknown>, msg: string) => {
    if (order[lvl] < order[level]) return;
    write(`${JSON.stringify({ level: lvl, time: new Date().toISOString(), msg, ...fields })}\n`);
  };
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}
