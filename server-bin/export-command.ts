import { createWriteStream, readFileSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { ConfigError } from './config.ts';
import { EXPORT_PASSPHRASE_MIN_LENGTH, type ExportHeader } from '../core/index.ts';

export const EXPORT_USAGE = `Usage: gatehouse export --project <id> [--out <file>] [--include-secrets] [--url <url>] [--admin-key <key>]

Writes a project's teams and users as NDJSON in Gatehouse's import format (docs/migrating.md),
streamed from a running Gatehouse (GET /api/v1/internal/users/export); \`gatehouse import\` reads
it back. A dropped connection resumes where it stopped.

  --out <file>          write here (created readable by its owner only); default: standard output
  --include-secrets     also export password hashes and TOTP secrets, sealed under a passphrase
                        (AES-256-GCM, scrypt key) taken from GATEHOUSE_EXPORT_PASSPHRASE or
                        --passphrase-file; at least ${EXPORT_PASSPHRASE_MIN_LENGTH} characters. Importing needs the same passphrase.
  --passphrase-file <f> read the passphrase from the first line of this file
  --project <id>        project id (env STACK_PROJECT_ID)
  --url <url>           a running Gatehouse (env GATEHOUSE_URL, default http://127.0.0.1:8102)
  --admin-key <key>     the project's super secret admin key (env GATEHOUSE_ADMIN_KEY or
                        STACK_SUPER_SECRET_ADMIN_KEY)
`;

interface ExportCommand {
  help: boolean;
  projectId: string;
  adminKey: string;
  url: string;
  out: string | null;
  passphrase: string | null;
}

/**
 * The passphrase of a sealed export: `--passphrase-file`'s first line, else GATEHOUSE_EXPORT_PASSPHRASE.
 *
 * @throws ConfigError when neither is given, or it is shorter than EXPORT_PASSPHRASE_MIN_LENGTH.
 */
export function exportPassphrase(file: string | undefined, env: NodeJS.ProcessEnv): string {
  let passphrase: string | undefined;
  if (file) {
    try {
      passphrase = readFileSync(file, 'utf8').split(/\r?\n/)[0];
    } catch (error) {
      throw new ConfigError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  } else passphrase = env.GATEHOUSE_EXPORT_PASSPHRASE;
  if (!passphrase) throw new ConfigError('sealed secrets need a passphrase: set GATEHOUSE_EXPORT_PASSPHRASE or pass --passphrase-file');
  if (passphrase.length < EXPORT_PASSPHRASE_MIN_LENGTH)
    throw new ConfigError(`the passphrase must be at least ${EXPORT_PASSPHRASE_MIN_LENGTH} characters`);
  return passphrase;
}

/** Parses `gatehouse export` arguments (flags win over the environment). @throws ConfigError */
export function resolveExportCommand(argv: string[], env: NodeJS.ProcessEnv): ExportCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        project: { type: 'string' },
        out: { type: 'string' },
        url: { type: 'string' },
        'admin-key': { type: 'string' },
        'include-secrets': { type: 'boolean' },
        'passphrase-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see gatehouse export --help)`);
  }
  if (values.help) return { help: true } as ExportCommand;
  const projectId = (values.project as string | undefined) ?? env.STACK_PROJECT_ID;
  const adminKey = (values['admin-key'] as string | undefined) ?? env.GATEHOUSE_ADMIN_KEY ?? env.STACK_SUPER_SECRET_ADMIN_KEY;
  if (!projectId) throw new ConfigError('--project is required (or STACK_PROJECT_ID)');
  if (!adminKey) throw new ConfigError('--admin-key is required (or GATEHOUSE_ADMIN_KEY)');
  if (values['passphrase-file'] && !values['include-secrets']) throw new ConfigError('--passphrase-file goes with --include-secrets');
  return {
    help: false,
    projectId,
    adminKey,
    url: ((values.url as string | undefined) ?? env.GATEHOUSE_URL ?? 'http://127.0.0.1:8102').replace(/\/+$/, ''),
    out: (values.out as string | undefined) ?? null,
    passphrase: values['include-secrets'] ? exportPassphrase(values['passphrase-file'] as string | undefined, env) : null,
  };
}

/** What an export wrote. */
export interface ExportSummary {
  teams: number;
  users: number;
  seconds: number;
  /** Connections that dropped and were resumed. */
  resumed: number;
}

/** Connection attempts per export before giving up. */
const ATTEMPTS = 5;

/** One request of the export: from the start, or after `cursor` with the export's salt. */
function request(cmd: ExportCommand, cursor: string | null, salt: string | null): Promise<Response> {
  const headers = {
    'x-stack-project-id': cmd.projectId,
    'x-stack-access-type': 'admin',
    'x-stack-super-secret-admin-key': cmd.adminKey,
  };
  const url = `${cmd.url}/api/v1/internal/users/export`;
  if (cmd.passphrase === null) return fetch(cursor ? `${url}?cursor=${encodeURIComponent(cursor)}` : url, { headers });
  const body = { passphrase: cmd.passphrase, ...(cursor ? { cursor } : {}), ...(salt ? { salt } : {}) };
  return fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Lines of a response body as they arrive (the last one may be cut by a dropped connection). */
async function* bodyLines(res: Response): AsyncGenerator<{ text: string; complete: boolean }> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      yield { text: pending.slice(0, end), complete: true };
      pending = pending.slice(end + 1);
    }
  }
  if (pending) yield { text: pending, complete: false };
}

async function write(stream: WriteStream | NodeJS.WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * `gatehouse export`: streams the export into `--out` (through `<file>.partial`, renamed when
 * complete; mode 0600) or standard output, printing progress on a terminal and a summary. On a
 * dropped connection it asks again after the last complete user line (and with the sealed
 * export's salt, so one passphrase opens the whole file), up to 5 attempts.
 *
 * @throws ConfigError for bad flags, an unreachable server, an error answer, or too many drops.
 */
export async function runExportCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<ExportSummary | null> {
  const cmd = resolveExportCommand(argv, env);
  if (cmd.help) {
    process.stdout.write(EXPORT_USAGE);
    return null;
  }
  const partial = cmd.out ? `${cmd.out}.partial` : null;
  const output = partial ? createWriteStream(partial, { mode: 0o600 }) : process.stdout;
  const started = performance.now();
  const summary: ExportSummary = { teams: 0, users: 0, seconds: 0, resumed: 0 };
  let cursor: string | null = null;
  let salt: string | null = null;
  let headerWritten = false;
  let done = false;
  try {
    for (let attempt = 1; !done; attempt++) {
      if (attempt > ATTEMPTS) throw new ConfigError(`the connection to ${cmd.url} dropped ${ATTEMPTS} times; run the export again`);
      let res: Response;
      try {
        res = await request(cmd, cursor, salt);
      } catch (error) {
        if (attempt < ATTEMPTS && headerWritten) {
          summary.resumed++;
          continue;
        }
        throw new ConfigError(`cannot reach ${cmd.url} (${(error as Error).message})`);
      }
      if (!res.ok) {
        const text = await res.text();
        throw new ConfigError(`the server answered ${res.status}: ${text.split('\n')[0]}`);
      }
      // A resumed answer without a cursor (the drop came before the first user) repeats the teams
      // already written, in the same order (by id): skip that many.
      let repeatedTeams = cursor === null ? summary.teams : 0;
      try {
        for await (const line of bodyLines(res)) {
          if (!line.complete) break;
          const record = JSON.parse(line.text) as { type?: string; id?: string } & Partial<ExportHeader>;
          if (record.type === 'export') {
            salt = record.secrets?.salt ?? null;
            if (headerWritten) continue;
            headerWritten = true;
          } else if (record.type === 'end') done = true;
          else if (record.type === 'team') {
            if (repeatedTeams > 0) {
              repeatedTeams--;
              continue;
            }
            summary.teams++;
          } else {
            summary.users++;
            cursor = record.id ?? cursor;
          }
          await write(output, `${line.text}\n`);
          if (process.stderr.isTTY && (summary.users + summary.teams) % 1000 === 0)
            process.stderr.write(`\r${summary.teams} teams, ${summary.users} users\x1b[K`);
        }
      } catch (error) {
        if (error instanceof SyntaxError) throw new ConfigError(`the server sent a line that is not JSON (${error.message})`);
      }
      // Without the end line the connection dropped (mid-line, or between lines): resume after the last user.
      if (!done) summary.resumed++;
    }
    if (partial) {
      await new Promise<void>((resolve, reject) =>
        (output as WriteStream).end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      renameSync(partial, cmd.out!);
    }
  } catch (error) {
    if (partial) {
      (output as WriteStream).destroy();
      rmSync(partial, { force: true });
    }
    throw error;
  }
  summary.seconds = (performance.now() - started) / 1000;
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  process.stderr.write(
    `Exported ${summary.teams} teams and ${summary.users} users${cmd.passphrase ? ' (secrets sealed)' : ''}${cmd.out ? ` to ${cmd.out}` : ''} in ${summary.seconds.toFixed(1)} s${summary.resumed ? `, resumed ${summary.resumed} times` : ''}.\n`,
  );
  return summary;
}
