/**
 * The dashboard's "Import users" page under happy-dom (and StrictMode): a dry run then an import
 * of a file in batches, progress and the failed lines with their codes; sealed exports are sent to
 * the CLI instead of being posted.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { act, click, flush, render, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT_ID, dashboard } from './test-harness.tsx';

/** Picks `file` in the page's file input, as a user's choice would. */
async function choose(container: HTMLElement, file: File) {
  const input = container.querySelector('input[type="file"]') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new (window as unknown as { Event: typeof Event }).Event('change', { bubbles: true }));
  });
}

it('import users page: a dry run, then the import in batches, with every failed line shown', async () => {
  const calls: { path: string; body: { first_line: number; lines: string[] } }[] = [];
  const lines = Array.from({ length: 1500 }, (_, i) => JSON.stringify({ primary_email: `u${i}@example.com` }));
  const { api } = dashboard(`/projects/${PROJECT_ID}/import`, (req) => {
    if (!req.path.startsWith('/internal/users/import')) return undefined;
    const body = JSON.parse(req.body ?? '{}');
    calls.push({ path: req.path, body });
    const dry = req.path.includes('dry_run=true');
    const results = body.lines.map((_: string, i: number) => {
      const line = body.first_line + i;
      return line === 7
        ? { line, status: 'failed', error: { code: 'DUPLICATE_EMAIL', message: 'Another user signs in with u6@example.com.' } }
        : { line, status: dry ? 'would_create' : 'created', type: 'user', id: `id-${line}` };
    });
    const failed = results.filter((r: { status: string }) => r.status === 'failed').length;
    return { status: 200, body: { dry_run: dry, results, created: results.length - failed, updated: 0, failed } };
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'From a file');
  await choose(container, new File([`${lines.join('\n')}\n`], 'users.ndjson', { type: 'application/x-ndjson' }));

  await click(container, 'Check the file');
  await waitForText(container, 'Dry run finished');
  assert.deepEqual(
    calls.map((c) => [c.path.includes('dry_run=true'), c.body.first_line, c.body.lines.length]),
    [
      [true, 1, 1000],
      [true, 1001, 500],
    ],
  );
  assert.match(container.textContent ?? '', /1499 would create, 0 would update, 1 failed/);
  const cells = [...container.querySelectorAll('table[aria-label="Failed lines"] td')].map((td) => td.textContent);
  assert.deepEqual(cells, ['7', 'DUPLICATE_EMAIL', 'Another user signs in with u6@example.com.']);

  // The dry-run switch (a checkbox or a role="switch" button, whichever the kit renders).
  const toggle = container.querySelector('[role="switch"], input[type="checkbox"]') as HTMLElement;
  await act(async () => toggle.click());
  await click(container, 'Import');
  await waitForText(container, 'Import finished');
  assert.equal(calls.length, 4);
  assert.ok(!calls[2]!.path.includes('dry_run'), 'the import is not a dry run');
  assert.match(container.textContent ?? '', /1499 created, 0 updated, 1 failed/);
  unmount();
});

it('import users page: a sealed export is refused with the way to import it, and nothing is sent', async () => {
  let posted = 0;
  const { api } = dashboard(`/projects/${PROJECT_ID}/import`, (req) => {
    if (req.path.startsWith('/internal/users/import')) posted++;
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'From a file');
  const sealed = '{"type":"export","format":"gatehouse-users/1"}\n{"type":"user","id":"x","sealed_secrets":"v1.a.b.c"}\n';
  await choose(container, new File([sealed], 'sealed.ndjson'));
  await click(container, 'Check the file');
  await waitForText(container, 'sealed secrets');
  await flush();
  assert.equal(posted, 0);
  assert.match(container.textContent ?? '', /gatehouse import/);
  unmount();
});
