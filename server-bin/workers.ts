import { availableParallelism } from 'node:os';

/**
 * `--workers <n|auto>` (GATEHOUSE_WORKERS): how many server processes share the port. `auto` is
 * one per core when the machine has more than one, else 1. Bounded to 1…64.
 *
 * @returns the count, or null when `value` is neither `auto` nor a whole number in range.
 */
export function parseWorkerCount(value: string, cores = availableParallelism()): number | null {
  const text = value.trim().toLowerCase();
  if (text === 'auto') return Math.max(1, Math.min(64, cores));
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= 64 ? n : null;
}
