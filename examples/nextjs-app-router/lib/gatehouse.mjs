// One Gatehouse per Next.js server process, mounted under /auth (kept on globalThis so that
// development reloads reuse it), with the Next.js pieces: route handlers and getUser().
//
// In an app of your own, `import { createGatehouse } from 'gatehouse-server/server'` with
// `serverExternalPackages: ['gatehouse-server']` is enough. Here the package is this repository
// itself (node_modules/gatehouse-server is a link to it, link.mjs) and Turbopack follows the link
// to a path outside node_modules, where it would bundle the server; so the two imports are left
// to Node at run time (`turbopackIgnore`).
import { headers } from 'next/headers';
import { exampleSettings, startExampleGatehouse } from '../../hosts/setup.mjs';

/** The example's Gatehouse, its project and the Next.js pieces (started on first use). */
export function exampleAuth() {
  globalThis.__gatehouseExample ??= (async () => {
    const gatehouseServer = await import(/* turbopackIgnore: true */ /* webpackIgnore: true */ 'gatehouse-server/server');
    const { createNextAuth } = await import(/* turbopackIgnore: true */ /* webpackIgnore: true */ 'gatehouse-server/next');
    const settings = exampleSettings(process.cwd());
    const auth = await startExampleGatehouse(settings, gatehouseServer);
    return { ...auth, next: createNextAuth(auth.gatehouse, { projectId: auth.projectId, secretServerKey: auth.secretServerKey, headers }) };
  })();
  return globalThis.__gatehouseExample;
}
