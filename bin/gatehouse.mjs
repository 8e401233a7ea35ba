#!/usr/bin/env node
// The `gatehouse` command of the server package (`npx gatehouse-server`, `gatehouse --help`): runs
// the bundled server (dist/server/cli.js, written by scripts/build-lib.mjs; `prepack` builds it,
// so an installed package always has it) on plain Node 20.12+. In a source checkout
// that has not been built yet it falls back to the TypeScript sources through tsx (a
// devDependency). The single executable (npm run build:binary) needs neither.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/server/cli.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../server-bin/cli.ts');
}
