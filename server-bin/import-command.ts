import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ConfigError } from './config.ts';
import { deriveExportKey, IMPORT_LINES_MAX, openExportSecrets } from '../core/index.ts';
import { VENDORS, vendorRecords, type Vendor } from './import-sources/index.ts';
import type { ExportHeader } from '../core/index.ts';
import { exportPassphrase } from './export-command.ts';

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
  --batch <n>          records per request (default 1000, at most ${IMPORT_LINES_MAX})
  --project <id>       project id (env STACK_PROJECT_ID)
  --url <url>          a running Gatehouse (env GATEHOUSE_URL, default http://127.0.0.1:8102)
  --admin-key <key>    the project's super secret admin key (env GATEHOUSE_ADMIN_KEY or
                       STACK_SUPER_SECRET_ADMIN_KEY)

Every failed record is printed with its line (record) number and reason; the exit status is 1
when any record failed.
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
  const batch = Number(flags['--batch'] ?? 1000);
  if (!Number.isInteger(batch) || batch < 1 || batch > IMPORT_LINES_MAX)
    throw new ConfigError(`--batch must be a whole number from 1 to ${IMPORT_LINES_MAX}`);
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

/** The file's records as NDJSON lines with their line numbers (1-based), streamed where the format allows. */
async function* sourceLines(cmd: ImportCommand, env: NodeJS.ProcessEnv): AsyncGenerator<string> {
  if (cmd.from !== 'gatehouse') {
    for await (const record of vendorRecords(cmd.from, cmd.file, cmd)) yield JSON.stringify(record);
    return;
  }
  let key: Buffer | null = null;
  let lineNumber = 0;
  for await (const line of createInterface({ input: createReadStream(cmd.file, 'utf8'), crlfDelay: Infinity })) {
    lineNumber++;
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

interface BatchAnswer {
  results: Array<{ line: number; status: string; error?: { code: string; message: string } }>;
  created: number;
  updated: number;
  failed: number;
}

async function postBatch(cmd: ImportCommand, lines: string[], firstLine: number): Promise<BatchAnswer> {
  const query = [cmd.dryRun ? 'dry_run=true' : '', cmd.allowInsecure ? 'allow_insecure_hashes=true' : ''].filter(Boolean).join('&');
  const send = () =>
    fetch(`${cmd.url}/api/v1/internal/users/import${query ? `?${query}` : ''}`, {
      method: 'POST',
      headers: {
        'x-stack-project-id': cmd.projectId,
        'x-stack-access-type': 'admin',
        'x-stack-super-secret-admin-key': cmd.adminKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ first_line: firstLine, lines }),
    });
  let res: Response;
  try {
    // Once more on a network error: a kept-alive connection the server closed while idle fails
    // the next request before the server reads it. (Records with an id or source_id are
    // idempotent anyway; a resent record without either would be reported DUPLICATE_EMAIL.)
    res = await send().catch(() => send());
  } catch (error) {
    throw new ConfigError(`cannot reach ${cmd.url} (${(error as Error).message})`);
  }
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      /* plain text answer */
    }
    throw new ConfigError(`the server answered ${res.status} at line ${firstLine}: ${message.split('\n')[0]}`);
  }
  return JSON.parse(text) as BatchAnswer;
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
 * `gatehouse import`: streams the file in batches of `--batch` records to the
 * import route, one request at a time (memory holds one batch), printing a progress line
 * (records/s, failures) on a terminal, each failed record with its line and reason, and a summary.
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
  let batch: string[] = [];
  let firstLine = 1;
  let lineNumber = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const answer = await postBatch(cmd, batch, firstLine);
    total.records += answer.results.length;
    total.created += answer.created;
    total.updated += answer.updated;
    total.failed += answer.failed;
    for (const r of answer.results) if (r.error) io.err(`line ${r.line}: ${r.error.code}: ${r.error.message}\n`);
    const seconds = (performance.now() - started) / 1000;
    io.progress(`${total.records} records, ${Math.round(total.records / seconds)}/s, ${total.failed} failed`);
    batch = [];
    firstLine = lineNumber + 1;
  };
  try {
    for await (const line of sourceLines(cmd, env)) {
      lineNumber++;
      batch.push(line);
      if (batch.length >= cmd.batch) await flush();
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot read ${cmd.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  await flush();
  total.seconds = (performance.now() - started) / 1000;
  io.progress('');
  const verb = cmd.dryRun ? 'Dry run, nothing written: would create' : 'Created';
  io.err(
    `${verb} ${total.created}, ${cmd.dryRun ? 'would update' : 'updated'} ${total.updated}, failed ${total.failed} of ${total.records} records in ${total.seconds.toFixed(1)} s (${Math.round(total.records / Math.max(total.seconds, 0.001))} records/s).\n`,
  );
  if (total.failed > 0) process.exitCode = 1;
  return total;
}
