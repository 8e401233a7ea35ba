#!/usr/bin/env node
// The `gatehouse` command of the server package (`npx gatehouse-server`, `gatehouse --help`):
// registers tsx's loader in-process (tsx is a dependency) and runs server-bin/cli.ts, so plain
// Node 20.12+ runs it without a `--import` flag. The single executable (npm run build:binary)
// needs neither.
import { register } from 'tsx/esm/api';

register();
await import('../server-bin/cli.ts');
