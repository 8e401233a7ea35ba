import { createReadStream, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createInterface } from 'node:readline';
import { ConfigError } from './config.ts';
import { deriveExportKey, openExportSecrets } from '../core/index.ts';
import { VENDORS, vendorRecords, type Vendor } from './import-sources/index.ts';
import type { ExportHeader } from '../core/index.ts';
import { exportPassphrase } from './export-command.ts';

/** Records per request by default: a few seconds of work for the server, well within its request timeout. */
const DEFAULT_BATCH = 10_000;
/** Most records per request. */
const BATCH_MAX = 1_000_000;

export const IMPORT_USAGE = `Usage:
  gatehouse import --project <id> [--from <source>] <file | database> [--dry-run] [--allow-insecure-hashes]
                   [--batch <n>] [--url <url>] [--admin-key <key>] [vendor options]

Imports users (with their password hashes), teams and memberships into a project of a running
Gatehouse through POST /api/v1/internal/users/import. See docs/migrating.md.

  --from gatehouse     (default) NDJSON in Gatehouse's import format, one user or team per line,
                       as \`gatehouse export\` writes it; the file is streamed: memory stays flat
                       whatever its size. Sealed secrets (\`export --include-secrets\`) are opened
                       with GATEHOUSE_EXPORT_PASSPHRASE or --passphrase-file <file>
  --from stack         a Stack Auth database (postgres:// URL) with --stack-project <id>
                       [--stack-branch <branch>, default main]: teams, users, emails, bcrypt
                       passwords, TOTP, OAuth links, memberships and permissions, ids kept
  --from firebase      the JSON of \`firebase auth:export --format=json\`, with
                       --firebase-hash-config <file> (the project's password hash parameters)
  --from clerk         Clerk's "Export users" CSV
  --from auth0         Auth0's bulk user export (NDJSON), with --auth0-passwords <file> (the
                       password hash export Auth0 support provides, NDJSON) for passwords
  --from supabase      the Supabase project's database URL (postgres://…): auth.users, auth.identities
  --from better-auth   the Better Auth database: a SQLite file or a postgres:// URL
  --dry-run            check every record and write nothing
  --allow-insecure-hashes  accept legacy $legacy-md5$ / $legacy-sha256$ digests
  --batch <n>          records per request (default ${DEFAULT_BATCH}): each request streams its
                       records and gets their results back as the server commits them; lower it
                       when a request would outlast the server's GATEHOUSE_HTTP_REQUEST_TIMEOUT
  --project <id>       project id (env STACK_PROJECT_ID)
  --url <url>          a running Gatehouse (env GATEHOUSE_URL, default http://127.0.0.1:8102)
  --admin-key <key>    the project's super secret admin key (env GATEHOUSE_ADMIN_KEY or
                       STACK_SUPER_SECRET_ADMIN_KEY)

Every failed record is printed with its line (record) number and reason; the exit status is 1
when any record failed. On a terminal a progress line shows records/s, failures and, for a file,
the time left.
`;

interface ImportCommand {
  help: boolean;
  file: string;
  from: 'gatehouse' | Vendor;
  projectId: string;
  adminKey: string;
  url: string;
  dryRun: boolean;
  allowInsecure: boolean;
  batch: number;
  firebaseHashConfig: string | null;
  auth0Passwords: string | null;
  stackProject: string | null;
  stackBranch: string | null;
  passphraseFile: string | null;
}

const VALUE_FLAGS = [
  '--project',
  '--from',
  '--url',
  '--admin-key',
  '--batch',
  '--firebase-hash-config',
  '--auth0-passwords',
  '--stack-project',
  '--stack-branch',
  '--passphrase-file',
];
const SWITCHES = ['--dry-run', '--allow-insecure-hashes'];

/** Parses `gatehouse import …` arguments (flags win over environment variables). @throws ConfigError */
export function resolveImportCommand(argv: string[], env: NodeJS.ProcessEnv): ImportCommand {
  const flags: Record<string, string> = {};
  const switches = new Set<string>();
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { help: true } as ImportCommand;
    if (SWITCHES.includes(arg)) {
      switches.add(arg);
      continue;
    }
    if (VALUE_FLAGS.includes(arg)) {
      const value = argv[++i];
      if (value === undefined) throw new ConfigError(`${arg} needs a value`);
      flags[arg] = value;
      continue;
    }
    if (arg.startsWith('--')) throw new ConfigError(`unknown option ${arg} for import`);
    files.push(arg);
  }
  if (files.length !== 1) throw new ConfigError('import takes one file (gatehouse import --help)');
  const from = flags['--from'] ?? 'gatehouse';
  if (from !== 'gatehouse' && !(VENDORS as readonly string[]).includes(from))
    throw new ConfigError(`--from ${from} is not a source gatehouse import reads (gatehouse, ${VENDORS.join(', ')})`);
  if (from === 'firebase' && !flags['--firebase-hash-config']) throw new ConfigError('--from firebase needs --firebase-hash-config <file>');
  const batch = Number(flags['--batch'] ?? DEFAULT_BATCH);
  if (!Number.isInteger(batch) || batch < 1 || batch > BATCH_MAX)
    throw new ConfigError(`--batch must be a whole number from 1 to ${BATCH_MAX}`);
  const projectId = flags['--project'] ?? env.STACK_PROJECT_ID;
  const adminKey = flags['--admin-key'] ?? env.GATEHOUSE_ADMIN_KEY ?? env.STACK_SUPER_SECRET_ADMIN_KEY;
  if (!projectId) throw new ConfigError('--project is required (or STACK_PROJECT_ID)');
  if (!adminKey) throw new ConfigError('--admin-key is required (or GATEHOUSE_ADMIN_KEY)');
  return {
    help: false,
    file: files[0]!,
    from: from as ImportCommand['from'],
    projectId,
    adminKey,
    batch,
    url: (flags['--url'] ?? env.GATEHOUSE_URL ?? 'http://127.0.0.1:8102').replace(/\/+$/, ''),
    dryRun: switches.has('--dry-run'),
    allowInsecure: switches.has('--allow-insecure-hashes'),
    firebaseHashConfig: flags['--firebase-hash-config'] ?? null,
    auth0Passwords: flags['--auth0-passwords'] ?? null,
    stackProject: flags['--stack-project'] ?? null,
    stackBranch: flags['--stack-branch'] ?? null,
    passphraseFile: flags['--passphrase-file'] ?? null,
  };
}

/** How far reading the source got: bytes read of `total` (null when the size is unknown: a database). */
interface ReadProgress {
  bytes: number;
  total: number | null;
}

/** The file's records as NDJSON lines, in order (line n of the output is record n), streamed where the format allows. */
async function* sourceLines(cmd: ImportCommand, env: NodeJS.ProcessEnv, progress: ReadProgress): AsyncGenerator<string> {
  if (cmd.from !== 'gatehouse') {
    for await (const record of vendorRecords(cmd.from, cmd.file, cmd)) yield JSON.stringify(record);
    return;
  }
  let key: Buffer | null = null;
  let lineNumber = 0;
  progress.total = statSync(cmd.file).size;
  const input = createReadStream(cmd.file, 'utf8');
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNumber++;
    progress.bytes = input.bytesRead;
    if (line.startsWith('{"type":"export"')) {
      const header = JSON.parse(line) as ExportHeader;
      if (header.secrets) key = await deriveExportKey(exportPassphrase(cmd.passphraseFile ?? undefined, env), header.secrets.salt);
      yield '';
      continue;
    }
    if (!line.includes('"sealed_secrets"')) {
      yield line;
      continue;
    }
    // A user of a sealed export: its password hash and TOTP secret are opened here, so they reach
    // the server as the import format has them and the file on disk stays sealed.
    let record: { id?: string; sealed_secrets?: unknown };
    try {
      record = JSON.parse(line);
    } catch {
      yield line; // the server reports the line as malformed
      continue;
    }
    if (key === null) throw new ConfigError(`line ${lineNumber}: sealed secrets but no export header with a salt before it`);
    const secrets =
      typeof record.sealed_secrets === 'string' && record.id ? openExportSecrets(key, record.id, record.sealed_secrets) : null;
    if (secrets === null) throw new ConfigError(`line ${lineNumber}: the passphrase does not open this export's sealed secrets`);
    delete record.sealed_secrets;
    yield JSON.stringify({ ...record, ...secrets });
  }
}

/** The last line of the server's streamed answer (core/user-import/import-stream.ts). */
interface StreamSummary {
  type: 'summary';
  records: number;
  created: number;
  updated: number;
  failed: number;
  error?: { code: string; message: string };
}

/** One record's result as the server streams it. */
interface LineResult {
  line: number;
  status: string;
  error?: { code: string; message: string };
}

/** Resolves when `req` may be written again, or has closed (listeners removed either way). */
function drained(req: ReturnType<typeof httpRequest>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      resolve();
    };
    req.once('drain', done);
    req.once('close', done);
  });
}

/**
 * One streamed request: sends up to `cmd.batch` records from `source` as an NDJSON body (waiting
 * for the socket to drain, so the file is never held), while reading the NDJSON answer as the
 * server commits each of its batches and handing every result to `onResult`. node:http rather than
 * fetch: the answer is read while the body is still being written (a client that only reads
 * after sending would stall once the answer filled the socket's buffers).
 *
 * @returns the server's summary of this request and whether the source ran out.
 * @throws ConfigError for an unreachable server, an error answer or an answer cut short.
 */
async function postStream(
  cmd: ImportCommand,
  source: AsyncIterator<string>,
  firstLine: number,
  onResult: (result: LineResult) => void,
): Promise<{ summary: StreamSummary; sent: number; exhausted: boolean }> {
  const query = new URLSearchParams({ first_line: String(firstLine) });
  if (cmd.dryRun) query.set('dry_run', 'true');
  if (cmd.allowInsecure) query.set('allow_insecure_hashes', 'true');
  const url = new URL(`${cmd.url}/api/v1/internal/users/import?${query}`);
  const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
    method: 'POST',
    agent: false, // a connection of its own: a kept-alive one the server closed while idle would fail mid-body
    headers: {
      'x-stack-project-id': cmd.projectId,
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': cmd.adminKey,
      'content-type': 'application/x-ndjson',
    },
  });
  const unreachable = (error: Error) => new ConfigError(`cannot reach ${cmd.url} (${error.message})`);
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', (error) => reject(unreachable(error)));
  });
  let sent = 0;
  let exhausted = false;
  let readError: unknown = null;
  const writing = (async () => {
    let chunk = '';
    while (sent < cmd.batch) {
      const next = await source.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      chunk += `${next.value}\n`;
      sent++;
      if (chunk.length >= 65_536) {
        const flushed = req.write(chunk);
        chunk = '';
        if (!flushed) await drained(req);
        if (req.destroyed) return;
      }
    }
    req.end(chunk);
  })().catch((error: unknown) => {
    // The source failed (an unreadable file, a sealed record without its key): that is the error to report.
    readError = error;
    req.destroy();
  });
  try {
    const result = await answer(cmd, req, answered, writing, firstLine, onResult, () => ({ sent, exhausted }));
    if (readError) throw readError;
    return result;
  } catch (error) {
    throw readError ?? error;
  }
}

/** Reads the streamed answer of {@link postStream}'s request (see there). */
async function answer(
  cmd: ImportCommand,
  req: ReturnType<typeof httpRequest>,
  answered: Promise<IncomingMessage>,
  writing: Promise<void>,
  firstLine: number,
  onResult: (result: LineResult) => void,
  progress: () => { sent: number; exhausted: boolean },
): Promise<{ summary: StreamSummary; sent: number; exhausted: boolean }> {
  const unreachable = (error: Error) => new ConfigError(`cannot reach ${cmd.url} (${error.message})`);
  const res = await answered.catch(async (error: unknown) => {
    await writing;
    throw error;
  });
  res.setEncoding('utf8');
  if (res.statusCode !== 200) {
    let text = '';
    for await (const part of res) text += part;
    req.destroy();
    await writing.catch(() => {});
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      /* plain text answer */
    }
    throw new ConfigError(`the server answered ${res.statusCode} at line ${firstLine}: ${message.split('\n')[0]}`);
  }
  let summary: StreamSummary | null = null;
  let rest = '';
  try {
    for await (const part of res as AsyncIterable<string>) {
      const lines = (rest + part).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (line === '') continue;
        const value = JSON.parse(line) as LineResult | StreamSummary;
        if ('type' in value && value.type === 'summary') summary = value;
        else onResult(value as LineResult);
      }
    }
  } catch (error) {
    throw unreachable(error as Error);
  }
  await writing;
  const { sent, exhausted } = progress();
  if (summary === null) throw new ConfigError(`the server's answer ended early (the request starting at line ${firstLine})`);
  if (summary.error)
    throw new ConfigError(
      `the server stopped the import after ${summary.records} records of the request starting at line ${firstLine}: ${summary.error.code}: ${summary.error.message}`,
    );
  return { summary, sent, exhausted };
}

/** Output streams (tests pass their own); `progress` gets the rewritten status line. */
export interface ImportIo {
  out: (text: string) => void;
  err: (text: string) => void;
  progress: (text: string) => void;
}
const processIo: ImportIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  progress: (t) => {
    if (process.stderr.isTTY) process.stderr.write(`\r${t}\x1b[K`);
  },
};

/** What an import did. */
export interface ImportSummary {
  records: number;
  created: number;
  updated: number;
  failed: number;
  seconds: number;
}

/**
 * `gatehouse import`: streams the file to the import route as NDJSON, `--batch` records per
 * request, one request at a time, reading each record's result as the server commits it (memory
 * holds a chunk of the file, never the file), printing a progress line (records/s, failures, time
 * left for a file) on a terminal, each failed record with its line and reason, and a summary.
 * Sets the exit status to 1 when a record failed.
 *
 * @throws ConfigError (one line) for bad flags, an unreadable file, an unreachable server or an
 *   error answer (a refused batch stops the import; earlier batches stay written).
 */
export async function runImportCommand(argv: string[], env: NodeJS.ProcessEnv, io: ImportIo = processIo): Promise<ImportSummary | null> {
  const cmd = resolveImportCommand(argv, env);
  if (cmd.help) {
    io.out(IMPORT_USAGE);
    return null;
  }
  const started = performance.now();
  const total: ImportSummary = { records: 0, created: 0, updated: 0, failed: 0, seconds: 0 };
  const read: ReadProgress = { bytes: 0, total: null };
  let shown = 0;
  const showProgress = () => {
    const now = performance.now();
    if (now - shown < 250) return;
    shown = now;
    const seconds = (now - started) / 1000;
    const rate = total.records / Math.max(seconds, 0.001);
    let eta = '';
    if (read.total && read.bytes > 0) {
      const left = Math.max(0, Math.round((seconds * (read.total - read.bytes)) / read.bytes));
      eta = `, ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left`;
    }
    io.progress(`${total.records} records, ${Math.round(rate)}/s, ${total.failed} failed${eta}`);
  };
  const source = sourceLines(cmd, env, read);
  let firstLine = 1;
  try {
    for (;;) {
      const { summary, sent, exhausted } = await postStream(cmd, source, firstLine, (r) => {
        total.records++;
        if (r.error) {
          total.failed++;
          io.err(`line ${r.line}: ${r.error.code}: ${r.error.message}\n`);
        }
        showProgress();
      });
      total.created += summary.created;
      total.updated += summary.updated;
      firstLine += sent;
      if (exhausted) break;
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot read ${cmd.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  total.seconds = (performance.now() - started) / 1000;
  io.progress('');
  const verb = cmd.dryRun ? 'Dry run, nothing written: would create' : 'Created';
  io.err(
    `${verb} ${total.created}, ${cmd.dryRun ? 'would update' : 'updated'} ${total.updated}, failed ${total.failed} of ${total.records} records in ${total.seconds.toFixed(1)} s (${Math.round(total.records / Math.max(total.seconds, 0.001))} records/s).\n`,
  );
  if (total.failed > 0) process.exitCode = 1;
  return total;
}
