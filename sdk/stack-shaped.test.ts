import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { join } from 'node:path';
import { api, createProject } from '../test/helpers/api.ts';
import { describeWithServer } from '../test/helpers/suite.ts';
import { ClientApp } from './index.ts';
import { inProcessTransport } from './in-process.ts';

const ROOT = join(import.meta.dirname, '..');

/** Compiles a type-level sample with tsc; the diagnostics, '' when it compiles. */
function tsc(project: string): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, project)], { encoding: 'utf8' });
  return r.status === 0 ? '' : `${r.stdout}${r.stderr}` || `tsc exited ${r.status}`;
}

it("the Stack-API sample compiles against @stackframe/js 2.8.108 itself (it is Stack's documented API)", () => {
  assert.equal(tsc('test/types/tsconfig.stack.json'), '');
});

it("the same sample and the @stackframe/react-style hooks compile against Gatehouse's SDK types", () => {
  assert.equal(tsc('test/types/tsconfig.gatehouse.json'), '');
});

describeWithServer('Stack-shaped SDK calls at run time (issue 29)', (get) => {
  it('user.signOut ends the session; project permissions through hasPermission / getPermission / listPermissions without a team', async () => {
    const server = get();
    const { projectId, admin, server: serverCaller } = await createProject(server);
    const defined = await api(server, 'POST', '/project-permission-definitions', admin, { id: 'read_reports' });
    assert.equal(defined.status, 201, defined.text);
    const app = new ClientApp({
      projectId,
      transport: inProcessTransport(server.gatehouse),
      tokenStore: 'memory',
      urls: { handler: '/handler' },
    });
    const up = await app.signUpWithCredential({
      email: `stack-shaped-${Date.now()}@example.com`,
      password: 'a-long-password',
      noVerificationCallback: true,
      noRedirect: true,
    });
    assert.equal(up.status, 'ok');
    const user = await app.getUser({ or: 'throw' });
    assert.equal(await user.hasPermission('read_reports'), false);
    const granted = await api(server, 'POST', `/project-permissions/${user.id}/read_reports`, serverCaller, {});
    assert.equal(granted.status, 201, granted.text);
    assert.equal(await user.hasPermission('read_reports'), true);
    assert.deepEqual(await user.getPermission('read_reports'), { id: 'read_reports' });
    assert.ok((await user.listPermissions()).some((p) => p.id === 'read_reports'));
    await user.signOut({ noRedirect: true });
    assert.equal(await app.getUser(), null);
  });
});
