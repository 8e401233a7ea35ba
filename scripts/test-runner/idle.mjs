// The whole machine's idle CPU share, from Linux's /proc/stat, for the test runner's choice of how
// many test processes to run (scripts/test.mjs).
import { readFileSync } from 'node:fs';

/** CPU time counters (clock ticks) of the `cpu` line: [total, idle + iowait], or undefined off Linux. */
function readCpu() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    return [ticks.reduce((a, b) => a + b, 0), ticks[3] + ticks[4]];
  } catch {
    return undefined;
  }
}

/**
 * Returns a function that gives the share (0–1) of the machine's CPU time that was idle (or
 * waiting on I/O) over about the last two calls (a window of the two latest intervals), or
 * undefined where /proc/stat cannot be read or before a first interval has passed.
 */
export function idleSampler() {
  const samples = [readCpu()];
  return () => {
    const now = readCpu();
    if (!now || !samples[0]) return undefined;
    samples.push(now);
    if (samples.length > 3) samples.shift();
    const [first] = samples;
    const total = now[0] - first[0];
    return total > 0 ? (now[1] - first[1]) / total : undefined;
  };
}
