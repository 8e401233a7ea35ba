import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, createInternalUser, internal } from '../helpers/api.ts';
import { startModelServer } from '../helpers/model-server.ts';
import type { TestServer } from '../helpers/server.ts';

const model = await startModelServer();
after(() => model.close());

const MODEL_KEY = 'sk-test-model-key-0123456789';
const DOCS = [
  {
    name: 'oauth.md',
    text: '# OAuth\n\n## Magic links\n\nTurn on magic links on the Auth methods page (magic_link_enabled).\n\n## Unrelated\n\nNothing about that here.',
  },
];

/** Reads a server-sent-events body into `{event, data}` pairs. */
async function readEvents(res: Response): Promise<Array<{ event: string; data: any }>> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1] ?? 'message';
      const data = JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? 'null');
      return { event, data };
    });
}

function headersOf(caller: { projectId?: string; accessType?: string; adminAccessToken?: string }): Record<string, string> {
  return {
    'x-stack-project-id': caller.projectId!,
    'x-stack-access-type': caller.accessType!,
    'x-stack-admin-access-token': caller.adminAccessToken!,
    'content-type': 'application/json',
  };
}

const ask = (text: string) => ({ context_type: 'dashboard', messages: [{ role: 'user', content: [{ type: 'text', text }] }] });

describeWithServer('ai-chat (assistant not configured)', (get) => {
  it('answers AI_CHAT_NOT_CONFIGURED on POST and tells the dashboard it is off', async () => {
    const server = get();
    const p = await createProject(server);
    assertKnownError(await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, p.admin, ask('hello')), 'AI_CHAT_NOT_CONFIGURED', 400);
    const owner = { ...internal.client, accessToken: p.owner.accessToken };
    const settings = await api(server, 'GET', '/internal/server-settings/assistant', owner);
    assert.equal(settings.status, 200, settings.text);
    assert.equal(settings.body.configured, false);
    assert.equal(model.requests.length, 0, 'nothing was sent to any model');
  });
});

describeWithServer(
  'ai-chat (a model that stalls)',
  (get) => {
    it('gives up after the timeout and says so in plain words', async () => {
      const server = get();
      model.requests.length = 0;
      model.script.length = 0;
      model.script.push({ hang: true }, { hang: true });
      const p = await createProject(server);
      const res = await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, p.admin, ask('hello?'));
      assertKnownError(res, 'AI_CHAT_MODEL_ERROR', 400);
      assert.match(res.body.error, /did not answer (within 0\.3 seconds|in time)/);
      model.script.length = 0;
    });
  },
  { ai: { baseUrl: model.baseUrl, model: 'test-model', timeoutMs: 300 } },
);

describeWithServer(
  'ai-chat',
  (get) => {
    const fresh = () => {
      model.requests.length = 0;
      model.script.length = 0;
    };

    it("round trip: POST answers upstream's {content} and stores the exchange; GET returns it", async () => {
      const server = get();
      fresh();
      const p = await createProject(server);
      const thread = randomUUID();
      const res = await api(server, 'POST', `/internal/ai-chat/${thread}`, p.admin, ask('How do I turn on magic links?'));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { content: [{ type: 'text', text: 'You asked: How do I turn on magic links?' }] });
      assert.equal(model.requests.length, 1);
      const sent = model.requests[0]!;
      assert.equal(sent.body.model, 'test-model');
      assert.equal(sent.body.stream, true);
      assert.equal(sent.headers.authorization, `Bearer ${MODEL_KEY}`);
      assert.match(sent.body.messages[0]!.content!, /Turn on magic links on the Auth methods page/, 'related docs are in the context');
      assert.doesNotMatch(sent.body.messages[0]!.content!, /Nothing about that here/, 'unrelated doc sections are left out');
      assert.match(sent.body.messages[0]!.content!, /"magic_link_enabled": false/, 'the project settings are in the context');
      const got = await api(server, 'GET', `/internal/ai-chat/${thread}`, p.admin);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body.messages, [
        { role: 'user', content: [{ type: 'text', text: 'How do I turn on magic links?' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'You asked: How do I turn on magic links?' }] },
      ]);
      const list = await api(server, 'GET', '/internal/ai-chat', p.admin);
      assert.deepEqual(
        list.body.threads.map((t: any) => [t.id, t.title]),
        [[thread, 'How do I turn on magic links?']],
      );
    });

    it('streams the answer as server-sent events piece by piece, then stores it', async () => {
      const server = get();
      fresh();
      const p = await createProject(server);
      const thread = randomUUID();
      model.script.push({ text: 'Open **Auth methods** and switch on Magic link.', pieces: 4 });
      const res = await fetch(`${server.url}/api/v1/internal/ai-chat/${thread}?stream=true`, {
        method: 'POST',
        headers: headersOf(p.admin),
        body: JSON.stringify(ask('magic links?')),
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      const events = await readEvents(res);
      const texts = events.filter((e) => e.event === 'text').map((e) => e.data.text);
      assert.ok(texts.length >= 4, `several text events, got ${texts.length}`);
      assert.equal(texts.join(''), 'Open **Auth methods** and switch on Magic link.');
      assert.deepEqual(events.at(-1), {
        event: 'done',
        data: { content: [{ type: 'text', text: 'Open **Auth methods** and switch on Magic link.' }] },
      });
      const got = await api(server, 'GET', `/internal/ai-chat/${thread}`, p.admin);
      assert.equal(got.body.messages.length, 2);
      assert.deepEqual(got.body.messages[1], {
        role: 'assistant',
        content: [{ type: 'text', text: 'Open **Auth methods** and switch on Magic link.' }],
      });
    });

    it('stops when the client goes away and stores the answer as far as it got, marked stopped', async () => {
      const server = get();
      fresh();
      const p = await createProject(server);
      const thread = randomUUID();
      model.script.push({ text: 'one two three four five six seven eight nine ten', pieces: 10, delayMs: 200 });
      const controller = new AbortController();
      const res = await fetch(`${server.url}/api/v1/internal/ai-chat/${thread}?stream=true`, {
        method: 'POST',
        headers: headersOf(p.admin),
        body: JSON.stringify(ask('count')),
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      assert.match(first, /^event: text\ndata: /);
      controller.abort();
      let stored: any;
      for (let i = 0; i < 50; i++) {
        stored = (await api(server, 'GET', `/internal/ai-chat/${thread}`, p.admin)).body;
        if (stored.messages?.length === 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(stored.messages[1].stopped, true);
      const text = stored.messages[1].content[0].text as string;
      assert.ok(text.startsWith('one') && !text.includes('ten'), `partial answer stored: ${text}`);
    });

    it('PATCH appends a message after the stored ones, and a second question continues the thread', async () => {
      const server = get();
      fresh();
      const p = await createProject(server);
      const thread = randomUUID();
      assert.equal(
        (await api(server, 'PATCH', `/internal/ai-chat/${thread}`, p.admin, { message: { role: 'user', content: 'first note' } })).status,
        200,
      );
      assert.deepEqual(
        (
          await api(server, 'PATCH', `/internal/ai-chat/${thread}`, p.admin, {
            message: { role: 'assistant', content: [{ type: 'text', text: 'second' }] },
          })
        ).body,
        {},
      );
      const res = await api(server, 'POST', `/internal/ai-chat/${thread}`, p.admin, {
        context_type: 'dashboard',
        messages: [
          { role: 'user', content: 'first note' },
          { role: 'assistant', content: [{ type: 'text', text: 'second' }] },
          { role: 'user', content: 'third?' },
        ],
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(model.requests[0]!.body.messages.slice(1), [
        { role: 'user', content: 'first note' },
        { role: 'assistant', content: 'second' },
        { role: 'user', content: 'third?' },
      ]);
      const got = await api(server, 'GET', `/internal/ai-chat/${thread}`, p.admin);
      assert.deepEqual(
        got.body.messages.map((m: any) => m.role),
        ['user', 'assistant', 'user', 'assistant'],
      );
      assert.equal(got.body.messages[2].content, 'third?');
    });

    it("keeps threads to their project and owner: another project's owner, or the project's admin key, gets AI_CHAT_THREAD_NOT_FOUND", async () => {
      const server = get();
      fresh();
      const a = await createProject(server);
      const b = await createProject(server);
      const thread = randomUUID();
      assert.equal(
        (await api(server, 'PATCH', `/internal/ai-chat/${thread}`, a.admin, { message: { role: 'user', content: 'private to A' } })).status,
        200,
      );
      assertKnownError(await api(server, 'GET', `/internal/ai-chat/${thread}`, b.admin), 'AI_CHAT_THREAD_NOT_FOUND', 404);
      // B's owner with A's project id is refused before any thread lookup.
      assertKnownError(
        await api(server, 'GET', `/internal/ai-chat/${thread}`, { ...a.admin, adminAccessToken: b.owner.accessToken }),
        'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
      );
      const keys = await createProjectKeys(server, a.admin);
      const keyCaller = { projectId: a.projectId, accessType: 'admin' as const, superSecretAdminKey: keys.superSecretAdminKey };
      assertKnownError(await api(server, 'GET', `/internal/ai-chat/${thread}`, keyCaller), 'AI_CHAT_THREAD_NOT_FOUND', 404);
      assertKnownError(
        await api(server, 'PATCH', `/internal/ai-chat/${thread}`, keyCaller, { message: 'x' }),
        'AI_CHAT_THREAD_NOT_FOUND',
        404,
      );
      assertKnownError(await api(server, 'POST', `/internal/ai-chat/${thread}`, keyCaller, ask('x')), 'AI_CHAT_THREAD_NOT_FOUND', 404);
      assertKnownError(await api(server, 'GET', `/internal/ai-chat/${randomUUID()}`, a.admin), 'AI_CHAT_THREAD_NOT_FOUND', 404);
      assert.deepEqual((await api(server, 'GET', '/internal/ai-chat', b.admin)).body.threads, []);
      // B may use the same thread id for its own thread without meeting A's.
      assert.equal((await api(server, 'PATCH', `/internal/ai-chat/${thread}`, b.admin, { message: 'B here' })).status, 200);
      assert.deepEqual((await api(server, 'GET', `/internal/ai-chat/${thread}`, b.admin)).body.messages, ['B here']);
      assert.deepEqual((await api(server, 'GET', `/internal/ai-chat/${thread}`, a.admin)).body.messages, [
        { role: 'user', content: 'private to A' },
      ]);
      assert.equal(model.requests.length, 0);
      for (const access of ['client', 'server'] as const) {
        assertKnownError(
          await api(server, 'GET', `/internal/ai-chat/${thread}`, { ...a.admin, accessType: access }),
          'INSUFFICIENT_ACCESS_TYPE',
        );
      }
    });

    it("runs read-only tools for the caller's project only: a user of another project is not found, failed sign-ins are this project's", async () => {
      const server = get();
      fresh();
      const a = await createProject(server);
      const b = await createProject(server);
      await api(server, 'POST', '/users', a.server, {
        primary_email: 'ann@a.example',
        primary_email_auth_enabled: true,
        password: 'correct horse battery',
        display_name: 'Ann',
      });
      await api(server, 'POST', '/users', b.server, {
        primary_email: 'bob@b.example',
        primary_email_auth_enabled: true,
        password: 'correct horse battery',
        display_name: 'Bob',
      });
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-in', a.client, { email: 'ann@a.example', password: 'wrong password!' }),
        'EMAIL_PASSWORD_MISMATCH',
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-in', b.client, { email: 'bob@b.example', password: 'wrong password!' }),
        'EMAIL_PASSWORD_MISMATCH',
      );
      model.script.push({
        toolCalls: [
          { name: 'lookup_user_by_email', arguments: JSON.stringify({ email: 'ann@a.example' }) },
          { name: 'lookup_user_by_email', arguments: JSON.stringify({ email: 'bob@b.example' }) },
          { name: 'list_recent_failed_sign_ins', arguments: JSON.stringify({ hours: 1 }) },
          { name: 'lookup_user_by_email', arguments: JSON.stringify({ email: 'bob@b.example', project_id: b.projectId }) },
          { name: 'explain_sign_in_settings', arguments: '{}' },
        ],
      });
      model.script.push({ text: 'Ann typed a wrong password once.' });
      const thread = randomUUID();
      const res = await api(server, 'POST', `/internal/ai-chat/${thread}`, a.admin, ask("Why can't ann@a.example sign in?"));
      assert.equal(res.status, 200, res.text);
      assert.equal(model.requests.length, 2, 'asked again with the tool results');
      assert.equal(model.requests[0]!.body.tools!.length, 3);
      const toolMessages = model.requests[1]!.body.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content!));
      assert.equal(toolMessages.length, 5);
      const [ann, bob, failures, smuggled, settings] = toolMessages;
      assert.equal(ann.found, true);
      assert.equal(ann.user.display_name, 'Ann');
      assert.equal(ann.user.sign_in_methods.password, true);
      assert.equal(bob.found, false, "another project's user is not visible");
      assert.equal(failures.failures.length, 1, "only this project's failed sign-ins");
      assert.equal(failures.failures[0].user_display_name, 'Ann');
      assert.equal(failures.failures[0].reason, 'wrong_password');
      assert.match(smuggled.error, /unknown arguments: project_id/);
      assert.equal(settings.settings.password_enabled, true);
      const blocks = res.body.content;
      assert.deepEqual(
        blocks.filter((b: any) => b.type === 'tool-call').map((b: any) => b.toolName),
        ['lookup_user_by_email', 'lookup_user_by_email', 'list_recent_failed_sign_ins', 'lookup_user_by_email', 'explain_sign_in_settings'],
      );
      assert.deepEqual(blocks.at(-1), { type: 'text', text: 'Ann typed a wrong password once.' });
      for (const m of model.requests[1]!.raw.matchAll(/\$argon2id\$[^"]*/g)) assert.fail(`a password hash reached the model: ${m[0]}`);
    });

    it("never sends keys, secrets, password hashes, email settings or users' data to the model", async () => {
      const server = get();
      fresh();
      const secrets = { client: 'gh-client-secret-4f1d9a', smtp: 'smtp-password-77c2e1' };
      const p = await createProject(server, {
        oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: 'gh-client-id', client_secret: secrets.client }],
        email_config: {
          type: 'standard',
          host: 'smtp.example.com',
          port: 587,
          username: 'mailer',
          password: secrets.smtp,
          sender_name: 'App',
          sender_email: 'noreply@example.com',
        },
      });
      const keys = await createProjectKeys(server, p.admin);
      const user = await api(server, 'POST', '/users', p.server, {
        primary_email: 'carol@private.example',
        password: 'carols-password-123',
        display_name: 'Carol',
        server_metadata: { ssn: 'metadata-secret-991' },
      });
      assert.equal(user.status, 201, user.text);
      model.script.push({ toolCalls: [{ name: 'explain_sign_in_settings', arguments: '{}' }] });
      const res = await api(
        server,
        'POST',
        `/internal/ai-chat/${randomUUID()}`,
        p.admin,
        ask('Explain my OAuth, SMTP email, keys, users and password settings.'),
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(model.requests.length, 2);
      const sent = model.requests.map((r) => r.raw).join('\n');
      assert.match(sent, /github/, 'the provider itself is described');
      for (const secret of [
        secrets.client,
        secrets.smtp,
        keys.superSecretAdminKey,
        keys.secretServerKey,
        keys.publishableClientKey,
        'carol@private.example',
        'carols-password-123',
        'metadata-secret-991',
        'Carol',
        'test-secret-do-not-use-in-production',
        p.owner.accessToken,
        p.owner.refreshToken,
        'smtp.example.com',
        'mailer',
      ]) {
        assert.ok(!sent.includes(secret), `${secret} reached the model`);
      }
      assert.doesNotMatch(sent, /\$argon2|\$2[aby]\$/, 'no password hash');
    });

    it('shows model endpoint errors in plain words: a known error in JSON mode, an error event when streaming', async () => {
      const server = get();
      fresh();
      const p = await createProject(server);
      model.script.push({ status: 401, message: 'Incorrect API key provided' });
      const res = await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, p.admin, ask('hi'));
      assertKnownError(res, 'AI_CHAT_MODEL_ERROR', 400);
      assert.match(
        res.body.error,
        /^The model endpoint at 127\.0\.0\.1:\d+ refused the API key \(401\)\. Check the key in the server settings\. It said: "Incorrect API key provided"$/,
      );
      model.script.push({ status: 404, message: 'model not found' });
      const thread = randomUUID();
      const stream = await fetch(`${server.url}/api/v1/internal/ai-chat/${thread}?stream=true`, {
        method: 'POST',
        headers: headersOf(p.admin),
        body: JSON.stringify(ask('hi')),
      });
      const events = await readEvents(stream);
      assert.equal(events.at(-1)!.event, 'error');
      assert.match(events.at(-1)!.data.error, /does not know the model "test-model", or the base URL is wrong \(404\)/);
      const stored = await api(server, 'GET', `/internal/ai-chat/${thread}`, p.admin);
      assert.match(stored.body.messages[1].error, /404/, 'the failed answer is stored with its error');
      // A 200 that is no chat completion (a web page at a wrong base URL): an error, not an empty answer.
      model.script.push({ junk: '<!doctype html><title>Welcome to nginx</title>' });
      const junk = await readEvents(
        await fetch(`${server.url}/api/v1/internal/ai-chat/${randomUUID()}?stream=true`, {
          method: 'POST',
          headers: headersOf(p.admin),
          body: JSON.stringify(ask('hi')),
        }),
      );
      assert.equal(junk.at(-1)!.event, 'error', JSON.stringify(junk));
      assert.match(junk.at(-1)!.data.error, /answered, but not with a chat completion/);
    });

    it("stops at the daily token budget and at the owner's rate limit", async () => {
      const server = get();
      fresh();
      const p = await createProject(server);
      model.script.push({ text: 'expensive', usage: 6000 });
      assert.equal((await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, p.admin, ask('one'))).status, 200);
      const over = await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, p.admin, ask('two'));
      assertKnownError(over, 'AI_CHAT_TOKEN_BUDGET_EXCEEDED', 400);
      assert.match(over.body.error, /budget of 5000 tokens/);
      assert.equal(model.requests.length, 1);
      // Another project has its own budget; its owner is limited to one question here.
      const q = await createProject(server, { rate_limits: { ai_chat_per_owner: { limit: 1, window_seconds: 600 } } });
      assert.equal((await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, q.admin, ask('one'))).status, 200);
      const limited = await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, q.admin, ask('two'));
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
    });

    it('lets the operator point the assistant elsewhere with a write-only key, sealed at rest; other owners only see whether it is on', async () => {
      const server = get();
      fresh();
      const operator = { ...internal.admin };
      const other = await createInternalUser(server);
      const otherCaller = { ...internal.client, accessToken: other.accessToken };
      assert.deepEqual((await api(server, 'GET', '/internal/server-settings/assistant', otherCaller)).body, {
        configured: true,
        editable: false,
      });
      assertKnownError(
        await api(server, 'PATCH', '/internal/server-settings/assistant', otherCaller, { model: 'x' }),
        'AI_SETTINGS_OPERATOR_ONLY',
        403,
      );
      const view = await api(server, 'GET', '/internal/server-settings/assistant', operator);
      assert.deepEqual(view.body, {
        configured: true,
        editable: true,
        base_url: model.baseUrl,
        model: 'test-model',
        api_key_set: true,
        source: { base_url: 'environment', model: 'environment', api_key: 'environment' },
      });
      const newKey = 'sk-dashboard-key-5e8b0c';
      const saved = await api(server, 'PATCH', '/internal/server-settings/assistant', operator, { model: 'other-model', api_key: newKey });
      assert.equal(saved.status, 200, saved.text);
      assert.ok(!saved.text.includes(newKey), 'the key is never returned');
      assert.deepEqual(saved.body.source, { base_url: 'environment', model: 'dashboard', api_key: 'dashboard' });
      const rows = await server.gatehouse.core.runtime.db.selectFrom('server_settings').selectAll().where('key', 'like', 'ai.%').execute();
      assert.ok(rows.length >= 2 && rows.every((r) => !r.value.includes(newKey) || r.key !== 'ai.api_key_sealed'), 'the key is sealed');
      assert.ok(!JSON.stringify(rows).includes(newKey));
      const p = await createProject(server);
      await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, p.admin, ask('hi'));
      assert.equal(model.requests.at(-1)!.body.model, 'other-model');
      assert.equal(model.requests.at(-1)!.headers.authorization, `Bearer ${newKey}`);
      // Pointing at a closed port: plain words, not a 500.
      await api(server, 'PATCH', '/internal/server-settings/assistant', operator, { base_url: 'http://127.0.0.1:9/v1' });
      const down = await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, p.admin, ask('hi'));
      assertKnownError(down, 'AI_CHAT_MODEL_ERROR');
      assert.match(down.body.error, /^Could not reach the model endpoint at 127\.0\.0\.1:9/);
      // Clearing the values goes back to the host's settings.
      await api(server, 'PATCH', '/internal/server-settings/assistant', operator, { base_url: null, model: null, api_key: null });
      assert.equal((await api(server, 'GET', '/internal/server-settings/assistant', operator)).body.source.model, 'environment');
      assert.equal((await api(server, 'POST', `/internal/ai-chat/${randomUUID()}`, p.admin, ask('hi'))).status, 200);
    });
  },
  { ai: { baseUrl: model.baseUrl, model: 'test-model', apiKey: MODEL_KEY, dailyTokenBudget: 5000, timeoutMs: 10_000, docs: () => DOCS } },
);

export type { TestServer };
