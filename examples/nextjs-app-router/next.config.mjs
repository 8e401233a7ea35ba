// Next.js configuration of the App Router example. Gatehouse runs in the Next.js server process:
// it must stay a Node package loaded at run time (native addons, worker threads), not bundled.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');

export default {
  serverExternalPackages: ['gatehouse-server', 'better-sqlite3', 'argon2'],
  // The example imports ../hosts/setup.mjs and resolves packages from the repository's node_modules.
  turbopack: { root: repo },
  outputFileTracingRoot: repo,
};
