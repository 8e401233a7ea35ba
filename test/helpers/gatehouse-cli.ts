import { join } from 'node:path';
// @ts-expect-error -- plain ESM build script without type declarations
import { SERVER_BUNDLE, ensureLibBuilt } from '../../scripts/build-lib.mjs';

/**
 * The `gatehouse` command as tests spawn it: the bundled server (`dist/server/cli.js`, what
 * `npm start` and the published package run), built from the sources when they are newer
 * (scripts/build-lib.mjs, cached by a stamp; `npm test`'s pretest builds it once per run).
 * Spawning `node --import tsx server-bin/cli.ts` compiled about 500 modules in every child
 * (3–5 s CPU each); the bundle starts in about 0.6 s.
 */
await ensureLibBuilt();

export const GATEHOUSE_CLI: readonly string[] = [process.execPath, join(import.meta.dirname, '..', '..', SERVER_BUNDLE as string)];
