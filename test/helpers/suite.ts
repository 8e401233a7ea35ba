import { after, before, describe } from 'node:test';
import type { Dialect } from '../../core/index.ts';
import { testDialects } from './dialects.ts';
import { startTestServer, type TestServer } from './server.ts';

/**
 * Runs `body` once per dialect of `dialects` (default: every configured one), each against its own
 * freshly started server: `describe('<name> [sqlite]', …)`. Use `get()` inside tests to reach the
 * server.
 */
export function describeWithServer(
  name: string,
  body: (get: () => TestServer, dialect: Dialect) => void,
  options: Parameters<typeof startTestServer>[1] = {},
  dialects: readonly Dialect[] = testDialects(),
): void {
  for (const dialect of dialects) {
    describe(`${name} [${dialect}]`, () => {
      let server: TestServer | undefined;
      before(async () => {
        server = await startTestServer(dialect, options);
      });
      after(async () => {
        await server?.close();
      });
      body(() => {
        if (!server) throw new Error('server not started');
        return server;
      }, dialect);
    });
  }
}
