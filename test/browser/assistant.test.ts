/**
 * Browser test: the dashboard assistant in real Chromium against a real server and a
 * loopback model server speaking OpenAI's chat-completions API. The assistant is hidden while the
 * server has no model endpoint; the operator (first owner) sets one in Server settings; then a
 * question gets its answer streamed piece by piece (Stop shows while it arrives), code comes as a
 * copyable snippet, the thread is listed and reopens from the server, and Stop cuts a slow answer.
 * On the first dialect only (`browserTestDialects`): the assistant's API and its stored threads are
 * tested on every dialect by test/routes/ai-chat.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { describeWithServer } from '../helpers/suite.ts';
import { browserTestDialects, closeChromium, openChromium, signUpOwnerWithProject } from '../helpers/browser.ts';
import { startModelServer } from '../helpers/model-server.ts';

const OWNER = { email: 'operator@example.com', password: 'a long enough password 1' };
const ANSWER =
  'Open **Auth methods** and switch on Magic link. From code:\n```ts\nawait admin.updateProject({ config: { magic_link_enabled: true } });\n```\nThat is all.';

const model = await startModelServer();
let browser: Browser;
before(async () => {
  browser = await openChromium();
});
after(async () => {
  await closeChromium(browser);
  await model.close();
});

describeWithServer(
  'dashboard assistant in Chromium',
  (get) => {
    let page: Page;
    const errors: string[] = [];
    before(async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      page = await context.newPage();
      page.setDefaultTimeout(15_000);
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) errors.push(m.text());
      });
    });
    after(async () => {
      await page?.context().close();
    });
    const projectNav = () => page.getByRole('navigation', { name: 'Project' });

    it('hides the assistant until the operator sets a model endpoint in Server settings', async () => {
      const server = get();
      await signUpOwnerWithProject(page, server.url, OWNER);
      await projectNav().getByRole('link', { name: 'Users', exact: true }).waitFor();
      assert.equal(await projectNav().getByRole('link', { name: 'Assistant' }).count(), 0, 'no assistant without an endpoint');

      await page.getByRole('link', { name: 'Server settings' }).click();
      await page.getByRole('heading', { name: 'Server settings' }).waitFor();
      await page.getByLabel('Base URL').fill(model.baseUrl);
      await page.getByLabel('Model').fill('test-model');
      await page.getByLabel('API key').fill('sk-browser-key');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('set (saved here)').waitFor();
      assert.equal(await page.getByLabel('API key').inputValue(), '', 'the key is not shown again');

      await page.reload();
      await page.getByRole('heading', { name: 'Server settings' }).waitFor();
      await page.getByRole('link', { name: 'All projects' }).click();
      await page.getByRole('link', { name: 'Acme' }).first().click();
      await projectNav().getByRole('link', { name: 'Assistant' }).click();
      await page.getByRole('heading', { name: 'Assistant', level: 1 }).waitFor();
    });

    it('asks a question and shows the answer as it streams, with a copyable snippet', async () => {
      model.requests.length = 0;
      model.script.push({ text: ANSWER, pieces: 8, delayMs: 150 });
      await page.getByLabel('Your question').fill('How do I turn on magic links?');
      await page.getByRole('button', { name: 'Send' }).click();
      const log = page.getByRole('log', { name: 'Messages' });
      // Part of the answer is on screen while the rest is still coming, with Stop offered.
      await log.getByText('Open **Auth methods**', { exact: false }).waitFor();
      const partial = await log.locator('article[aria-label=Assistant]').innerText();
      assert.ok(!partial.includes('That is all.'), `streamed, not all at once: ${partial}`);
      assert.ok(await page.getByRole('button', { name: 'Stop' }).isVisible());
      await log.getByText('That is all.').waitFor();
      await page.getByRole('button', { name: 'Send' }).waitFor();
      assert.equal(model.requests.length, 1);
      assert.equal(model.requests[0]!.headers.authorization, 'Bearer sk-browser-key');

      const snippet = page.getByRole('region', { name: /Snippet 1/ }).or(page.getByLabel('Snippet 1 (ts)'));
      assert.match(await snippet.innerText(), /magic_link_enabled: true/);
      await page.getByRole('button', { name: 'Copy snippet 1' }).click();
      await page.getByRole('button', { name: 'Copy snippet 1' }).getByText('Copied').waitFor();
      assert.equal(
        await page.evaluate(() => navigator.clipboard.readText()),
        'await admin.updateProject({ config: { magic_link_enabled: true } });',
      );

      // The thread is listed and reopens from what the server stored.
      const threads = page.getByRole('navigation', { name: 'Assistant threads' });
      await threads.getByRole('button', { name: 'How do I turn on magic links?', exact: true }).waitFor();
      await page.reload();
      await page
        .getByRole('navigation', { name: 'Assistant threads' })
        .getByRole('button', { name: 'How do I turn on magic links?', exact: true })
        .click();
      await page.getByRole('log', { name: 'Messages' }).getByText('That is all.').waitFor();
      assert.deepEqual(errors, []);
    });

    it('stops a slow answer and keeps what had arrived', async () => {
      model.script.push({ text: 'one two three four five six seven eight nine ten eleven twelve', pieces: 12, delayMs: 400 });
      await page.getByRole('button', { name: 'New chat' }).click();
      await page.getByLabel('Your question').fill('Count slowly');
      await page.getByRole('button', { name: 'Send' }).click();
      const log = page.getByRole('log', { name: 'Messages' });
      await log.getByText(/one two/).waitFor();
      await page.getByRole('button', { name: 'Stop' }).click();
      await log.getByText('Stopped.').waitFor();
      assert.ok(!(await log.innerText()).includes('twelve'));
      await page.getByRole('button', { name: 'Send' }).waitFor();
      assert.deepEqual(errors, []);
    });
  },
  { ai: { docs: () => [] } },
  browserTestDialects(),
);
