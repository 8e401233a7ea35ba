/** Limits of one render: guest wall time in ms (QuickJS interrupt) and guest heap in bytes. */
export const RENDER_TIME_LIMIT_MS = 1000;
export const RENDER_MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
