// Makes `gatehouse-server` resolve as an installed package here (node_modules/gatehouse-server →
// the repository), as `npm i gatehouse-server` would in an app of your own, so Next.js treats it
// as an external server package instead of bundling it. `next` itself resolves from the
// repository's node_modules (a devDependency there).
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const link = join(here, 'node_modules', 'gatehouse-server');
if (!existsSync(link)) {
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(join('..', '..', '..'), link, 'dir');
}
