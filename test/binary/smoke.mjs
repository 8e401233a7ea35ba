#!/usr/bin/env node
// CI smoke test of a built single executable (run by .ci/run after `npm run build:binary`):
// copies the binary alone into an empty folder, starts it there with no node on PATH, checks
// GET /api/v1 and /health/ready, the dashboard (/) and the hosted sign-in page with their scripts
// (sign-in rendered by the server),
// renders an email template on the embedded render worker (and stops a looping one), creates a user, restarts it and checks the user is still there
// (the server key seeded on first start still works and the e-mail is taken), and asks the dashboard
// assistant a question answered by a loopback OpenAI-compatible model server (the bundled `openai`
// client streams it; the embedded docs are in the context).
// Usage: node test/binary/smoke.mjs dist/gatehouse
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const source = resolve(process.argv[2] ?? 'dist/gatehouse');
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-smoke-'));
const binary = join(dir, 'gatehouse');
copyFileSync(source, binary);
// A loopback model server speaking OpenAI's chat-completions stream (the assistant's endpoint).
const modelRequests = [];
const modelServer = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => {
    raw += c;
  });
  req.on('end', () => {
    modelRequests.push(raw);
    const chunk = (delta, finish = null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'smoke', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      chunk({ role: 'assistant', content: 'Passkeys are ' }) +
        chunk({ content: 'on the Auth methods page.' }) +
        chunk({}, 'stop') +
        'data: [DONE]\n\n',
    );
  });
});
await new Promise((ok) => modelServer.listen(0, '127.0.0.1', ok));
const env = {
  HOME: join(dir, 'home'),
  PATH: '/nonexistent',
  GATEHOUSE_AI_BASE_URL: `http://127.0.0.1:${modelServer.address().port}/v1`,
  GATEHOUSE_AI_MODEL: 'smoke-model',
};

function start() {
  const t0 = performance.now();
  const child = spawn(binary, ['--port', '0'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`no "Listening" line in 15 s:\n${err}`));
    }, 15_000);
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
      const m = /Listening:\s+(\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        ok({ child, url: m[1], err: () => err, ms: performance.now() - t0 });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${code}:\n${err}`));
    });
  });
}

async function stop(proc) {
  const exited = new Promise((ok) => proc.child.once('exit', (code) => ok(code)));
  proc.child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`exit code ${code} after SIGTERM:\n${proc.err()}`);
}

function check(condition, message) {
  if (!condition) throw new Error(message);
  console.error(`  ok: ${message}`);
}

try {
  const first = await start();
  const key = /STACK_SECRET_SERVER_KEY=(\S+)/.exec(first.err())?.[1];
  check(key, `first start prints the internal keys (${Math.round(first.ms)} ms to listening)`);
  const headers = {
    'x-stack-project-id': 'internal',
    'x-stack-access-type': 'server',
    'x-stack-secret-server-key': key,
    'content-type': 'application/json',
  };
  const rootRes = await fetch(`${first.url}/api/v1`);
  check(rootRes.status === 200 && /Stack API/.test(await rootRes.text()), 'GET /api/v1 answers 200');
  check((await fetch(`${first.url}/health/ready`)).status === 200, 'GET /health/ready answers 200');
  // The dashboard and the hosted sign-in page render, and the script each loads is embedded.
  for (const page of ['/', '/handler/sign-in']) {
    const res = await fetch(`${first.url}${page}`);
    const html = await res.text();
    check(res.status === 200 && /text\/html/.test(res.headers.get('content-type') ?? ''), `GET ${page} answers an HTML page`);
    // The server's render of sign-in runs from the binary's embedded render file (server-bin/hosted-render.ts).
    if (page === '/handler/sign-in') check(/data-server-rendered>.*<input[^>]*type="email"/s.test(html), `GET ${page} arrives rendered`);
    // The script tag's URL is relative to the page (server-bin/page-shell.ts: it works under any mount prefix).
    const script = /<script type="module"[^>]* src="([^"?]+\.js)\?v=/.exec(html)?.[1];
    check(script, `GET ${page} loads a script`);
    const js = await fetch(new URL(script, `${first.url}${page}`));
    check(
      js.status === 200 && /javascript/.test(js.headers.get('content-type') ?? '') && (await js.text()).length > 1000,
      `GET ${script} is served from the binary`,
    );
  }
  // Email templates render on worker threads started from the embedded worker bundle; a looping
  // template is stopped while the server keeps answering.
  const adminKey = /STACK_SUPER_SECRET_ADMIN_KEY=(\S+)/.exec(first.err())?.[1];
  const adminHeaders = {
    'x-stack-project-id': 'internal',
    'x-stack-access-type': 'admin',
    'x-stack-super-secret-admin-key': adminKey,
    'content-type': 'application/json',
  };
  const render = (source) =>
    fetch(`${first.url}/api/v1/emails/render-email`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ template_tsx_source: source }),
    });
  const rendered = await render('export function EmailTemplate() { return <p>rendered in a worker</p>; }');
  check(
    rendered.status === 200 && (await rendered.text()).includes('rendered in a worker'),
    'POST /emails/render-email renders a template',
  );
  const looping = render('export function EmailTemplate() { while (true) {} }');
  check((await fetch(`${first.url}/api/v1`)).status === 200, 'GET /api/v1 answers while a looping template renders');
  const stopped = await looping;
  check(
    stopped.status === 400 && stopped.headers.get('x-stack-known-error') === 'EMAIL_RENDERING_ERROR',
    `a looping template is stopped with EMAIL_RENDERING_ERROR (got ${stopped.status})`,
  );
  // The dashboard assistant: the bundled openai client streams the answer; embedded docs are context.
  const asked = await fetch(`${first.url}/api/v1/internal/ai-chat/smoke-thread?stream=true`, {
    method: 'POST',
    headers: adminHeaders,
    body: JSON.stringify({ context_type: 'dashboard', messages: [{ role: 'user', content: 'How do passkeys work?' }] }),
  });
  const events = await asked.text();
  check(
    asked.status === 200 && events.includes('event: done') && events.includes('on the Auth methods page.'),
    `POST /internal/ai-chat/{thread}?stream=true streams the model's answer (got ${asked.status})`,
  );
  check(
    modelRequests.length === 1 && modelRequests[0].includes('docs/passkeys.md'),
    'the embedded docs/passkeys.md is in what the model was sent',
  );
  const user = { primary_email: 'smoke@example.com', primary_email_auth_enabled: true, password: 'smoke test password' };
  const created = await fetch(`${first.url}/api/v1/users`, { method: 'POST', headers, body: JSON.stringify(user) });
  check(created.status === 201, `POST /users answers 201 (got ${created.status})`);
  await stop(first);

  const second = await start();
  check(!/STACK_SECRET_SERVER_KEY=/.test(second.err()), `restart keeps the keys (${Math.round(second.ms)} ms to listening)`);
  const again = await fetch(`${second.url}/api/v1/users`, { method: 'POST', headers, body: JSON.stringify(user) });
  const body = await again.json();
  check(
    again.status === 409 || body.code === 'USER_EMAIL_ALREADY_EXISTS',
    `the user survived the restart (same e-mail refused: ${again.status} ${body.code})`,
  );
  await stop(second);
  console.error('smoke test of the single executable passed');
} finally {
  modelServer.close();
  rmSync(dir, { recursive: true, force: true });
}
