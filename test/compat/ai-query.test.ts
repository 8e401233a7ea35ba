import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, internal } from '../helpers/api.ts';
import { startModelServer } from '../helpers/model-server.ts';

// Upstream's `POST /api/v1/ai/query/{mode}` (its e2e file
// https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/ai-query.test.ts, "Validation" cases: statuses, codes
// and texts), answered from the assistant's model endpoint.

const model = await startModelServer();
after(() => model.close());

const body = (over: Record<string, unknown> = {}) => ({
  quality: 'smart',
  speed: 'fast',
  tools: [],
  systemPrompt: 'command-center-ask-ai',
  messages: [{ role: 'user', content: 'test' }],
  ...over,
});
const without = (key: string) => {
  const b: Record<string, unknown> = body();
  delete b[key];
  return b;
};

describeWithServer('POST /ai/query/{mode}', (get) => {
  it('refuses bad bodies as upstream: SCHEMA_ERROR naming the field', async () => {
    const server = get();
    const { admin } = await createProject(server);
    const mode = await api(server, 'POST', '/ai/query/invalid-mode', admin, body());
    assertKnownError(mode, 'SCHEMA_ERROR', 400);
    assert.match(mode.body.error, /must be one of the following values: stream, generate/);
    for (const [name, b, field] of [
      ['missing quality', without('quality'), 'quality'],
      ['invalid quality', body({ quality: 'invalid-quality' }), 'quality'],
      ['missing speed', without('speed'), 'speed'],
      ['invalid speed', body({ speed: 'invalid-speed' }), 'speed'],
      ['missing tools', without('tools'), 'tools'],
      ['missing systemPrompt', without('systemPrompt'), 'systemPrompt'],
      ['invalid systemPrompt', body({ systemPrompt: 'invalid-prompt' }), 'systemPrompt'],
      ['missing messages', without('messages'), 'messages'],
      ['empty messages', body({ messages: [] }), 'messages'],
    ] as const) {
      const res = await api(server, 'POST', '/ai/query/generate', admin, b);
      assertKnownError(res, 'SCHEMA_ERROR', 400);
      assert.ok(res.body.error.includes(field), `${name}: ${res.body.error}`);
    }
    assert.equal(model.requests.length, 0, 'nothing reached the model');
  });

  it("refuses unknown tools, foreign projects and too many or too large images with upstream's plain 400/403 texts", async () => {
    const server = get();
    const { admin, projectId } = await createProject(server);
    const tools = await api(server, 'POST', '/ai/query/generate', admin, body({ tools: ['invalid-tool', 'another-invalid-tool'] }));
    assert.equal(tools.status, 400);
    assert.match(tools.text, /Invalid tool names/);
    const foreign = await api(server, 'POST', '/ai/query/generate', admin, body({ projectId }));
    assert.equal(foreign.status, 403);
    assert.match(foreign.text, /You do not have access to this project/);
    const four = await api(
      server,
      'POST',
      '/ai/query/generate',
      admin,
      body({
        messages: [{ role: 'user', content: Array.from({ length: 4 }, () => ({ type: 'image', image: 'data:image/png;base64,AA==' })) }],
      }),
    );
    assert.equal(four.status, 400);
    assert.match(four.text, /Maximum 3 images per message\./);
    const big = 'A'.repeat(Math.ceil(((3 * 1024 * 1024 + 1) * 4) / 3));
    const large = await api(
      server,
      'POST',
      '/ai/query/generate',
      admin,
      body({ messages: [{ role: 'user', content: [{ type: 'image', image: `data:image/png;base64,${big}` }] }] }),
    );
    assert.equal(large.status, 400);
    assert.match(large.text, /Image exceeds 3MB limit/);
  });

  it('answers AI_CHAT_NOT_CONFIGURED when the operator set no model endpoint, and needs an owner', async () => {
    const server = get();
    const { admin, client } = await createProject(server);
    assertKnownError(await api(server, 'POST', '/ai/query/generate', admin, body()), 'AI_CHAT_NOT_CONFIGURED', 400);
    const anonymous = await api(server, 'POST', '/ai/query/generate', {}, body());
    assert.equal(anonymous.status, 403, anonymous.text);
    assert.equal((await api(server, 'POST', '/ai/query/generate', client, body())).status, 403);
  });
});

describeWithServer(
  'POST /ai/query/{mode} with a model',
  (get) => {
    it('generate answers {content, finalText, conversationId} from the model, passing image parts on', async () => {
      const server = get();
      model.requests.length = 0;
      model.script.length = 0;
      model.script.push({ text: 'Hello there', pieces: 3 });
      const { admin } = await createProject(server);
      const res = await api(
        server,
        'POST',
        '/ai/query/generate',
        admin,
        body({
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Say hello' },
                { type: 'image', image: 'data:image/png;base64,AA==' },
              ],
            },
          ],
        }),
      );
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { content: [{ type: 'text', text: 'Hello there' }], finalText: 'Hello there', conversationId: null });
      const sent = model.requests[0]!.body.messages.at(-1) as unknown as { content: unknown };
      assert.deepEqual(sent.content, [
        { type: 'text', text: 'Say hello' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } },
      ]);
      assert.match(model.requests[0]!.body.messages[0]!.content ?? '', /Task: answer a question asked from the dashboard/);
    });

    it('stream answers the AI SDK UI message stream as text/event-stream', async () => {
      const server = get();
      model.script.length = 0;
      model.script.push({ text: 'Hi!', pieces: 2 });
      const { admin } = await createProject(server);
      const res = await api(server, 'POST', '/ai/query/stream', admin, body());
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
      const chunks = res.text
        .split('\n\n')
        .filter(Boolean)
        .map((b) => b.replace(/^data: /, ''));
      assert.equal(chunks.at(-1), '[DONE]');
      const parsed = chunks.slice(0, -1).map((c) => JSON.parse(c));
      assert.deepEqual(
        parsed.map((c) => c.type),
        ['start', 'start-step', 'text-start', 'text-delta', 'text-delta', 'text-end', 'finish-step', 'finish'],
      );
      assert.equal(
        parsed
          .filter((c) => c.type === 'text-delta')
          .map((c) => c.delta)
          .join(''),
        'Hi!',
      );
    });

    it('lets a dashboard owner ask about a project they own, and no other', async () => {
      const server = get();
      model.script.length = 0;
      model.script.push({ text: 'ok' });
      const mine = await createProject(server);
      const theirs = await createProject(server);
      const owner = { ...internal.client, accessToken: mine.owner.accessToken };
      const ok = await api(server, 'POST', '/ai/query/generate', owner, body({ projectId: mine.projectId }));
      assert.equal(ok.status, 200, ok.text);
      const denied = await api(server, 'POST', '/ai/query/generate', owner, body({ projectId: theirs.projectId }));
      assert.equal(denied.status, 403);
      assert.match(denied.text, /You do not have access to this project/);
    });
  },
  { ai: { baseUrl: model.baseUrl, model: 'test-model' } },
);
