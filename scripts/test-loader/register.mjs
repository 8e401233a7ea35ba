// `node --import ./scripts/test-loader/register.mjs`: the test runner's TypeScript loader
// (hooks.mjs). Source maps are on so stack traces name the .ts lines.
import { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

process.setSourceMapsEnabled(true);
const root = fileURLToPath(new URL('../..', import.meta.url));
register('./hooks.mjs', import.meta.url, { data: { cacheDir: join(root, 'node_modules', '.cache', 'gatehouse-test-loader') } });
