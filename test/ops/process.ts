import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';

/** A gatehouse process started by a test. */
export interface GatehouseProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` as printed on the "Listening:" line. */
  url: string;
  /** Milliseconds from spawn to the "Listening:" line. */
  startMs: number;
  /** Everything the process wrote to stderr / stdout so far (stdout: starts reading an unread pipe). */
  stderr(): string;
  stdout(): string;
  /** Resolves with the exit code and signal once the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The internal project's keys every test process is seeded with. */
export const SEED_KEYS = {
  GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY: 'pck_ops_test_internal_publishable_key_0123456789abcdefgh',
  GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY: 'ssk_ops_test_internal_secret_server_key_0123456789abcdefg',
  GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY: 'sak_ops_test_internal_super_secret_admin_key_0123456789ab',
};

/** Headers of a server-access caller of the internal project (with SEED_KEYS). */
export const SERVER_HEADERS = {
  'x-stack-project-id': 'internal',
  'x-stack-access-type': 'server',
  'x-stack-secret-server-key': SEED_KEYS.GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY,
  'content-type': 'application/json',
};

/** Headers of a client-access caller of the internal project (with SEED_KEYS). */
export const CLIENT_HEADERS = {
  'x-stack-project-id': 'internal',
  'x-stack-access-type': 'client',
  'x-stack-publishable-client-key': SEED_KEYS.GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY,
  'content-type': 'application/json',
};

/**
 * Spawns `command` (e.g. `[...GATEHOUSE_CLI, '--port', '0']`, test/helpers/gatehouse-cli.ts,
 * or the built binary) and waits for its "Listening:" line.
 *
 * @throws Error when the process exits or prints nothing within `timeoutMs`.
 */
export function spawnGatehouse(
  command: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; readStdout?: boolean } = {},
): Promise<GatehouseProcess> {
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  // readStdout: false leaves the pipe unread (a stalled log shipper) until stdout() is called.
  const readOut = () =>
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
  let reading = options.readStdout !== false;
  if (reading) readOut();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gatehouse did not start within ${options.timeoutMs ?? 20000} ms:\n${err}`));
    }, options.timeoutMs ?? 20_000);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /Listening:\s+(\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({
          child,
          url: m[1]!,
          startMs: performance.now() - started,
          stderr: () => err,
          stdout: () => {
            if (!reading) {
              reading = true;
              readOut();
            }
            return out;
          },
          exited,
        });
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`gatehouse exited (${code ?? signal}) before listening:\n${err}`));
    });
  });
}

/**
 * Sends an HTTP request whose body arrives in two halves, `gapMs` apart, over a raw socket;
 * `onFirstHalf` runs once the headers and the first half are sent. Resolves with the status line
 * and the raw response.
 */
export function slowRequest(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  gapMs: number,
  onFirstHalf: () => void,
): Promise<{ status: number; raw: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const head = [
        `POST ${path} HTTP/1.1`,
        `host: ${hostname}:${port}`,
        `content-length: ${Buffer.byteLength(body)}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      const half = Math.floor(body.length / 2);
      socket.write(head + body.slice(0, half), () => {
        onFirstHalf();
        setTimeout(() => socket.write(body.slice(half)), gapMs);
      });
    });
    let raw = '';
    socket.setEncoding('utf8').on('data', (d: string) => {
      raw += d;
      const m = /^HTTP\/1\.1 (\d+)/.exec(raw);
      const headerEnd = raw.indexOf('\r\n\r\n');
      const len = /content-length: (\d+)/i.exec(raw);
      if (m && headerEnd >= 0 && len && Buffer.byteLength(raw.slice(headerEnd + 4)) >= Number(len[1])) {
        socket.end();
        resolve({ status: Number(m[1]), raw });
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const m = /^HTTP\/1\.1 (\d+)/.exec(raw);
      if (m) resolve({ status: Number(m[1]), raw });
      else reject(new Error(`connection closed without a response: ${raw}`));
    });
  });
}

/**
 * One request on its own connection (`connection: close`, no agent), so a `--workers` primary
 * hands each to the next worker: `{status, worker, body}` where `worker` is the
 * `x-gatehouse-worker` header of the process that answered.
 */
export function sendOnNewConnection(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; worker: string; body: any }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        headers: { ...headers, connection: 'close' },
        agent: false,
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => {
            text += d;
          })
          .on('end', () => {
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              /* text */
            }
            resolve({ status: res.statusCode ?? 0, worker: String(res.headers['x-gatehouse-worker'] ?? ''), body: parsed });
          });
      },
    );
    req.on('error', reject);
    // A loaded machine is slow, never this slow: a hung request fails the test instead of hanging it.
    req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path}: no answer in 20 s`)));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
