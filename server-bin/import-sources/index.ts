import { readFile } from 'node:fs/promises';
import { firebaseAccountToRecord, parseFirebaseHashConfig } from '../../core/index.ts';
import { ConfigError } from '../config.ts';
import { auth0PasswordHashes, auth0Records } from './auth0.ts';
import { betterAuthRecords } from './better-auth.ts';
import { clerkRecords } from './clerk.ts';
import { openSqlSource, type SqlSource } from './sql-source.ts';
import { stackRecords } from './stack.ts';
import { supabaseRecords } from './supabase.ts';

/** The vendors `gatehouse import --from` converts (besides `gatehouse`, its own format). */
export const VENDORS = ['stack', 'firebase', 'clerk', 'auth0', 'supabase', 'better-auth'] as const;
export type Vendor = (typeof VENDORS)[number];

/** What a vendor's conversion needs besides its source. */
export interface VendorOptions {
  /** Firebase: the project's password hash parameters file. */
  firebaseHashConfig: string | null;
  /** Auth0: the password hash export (NDJSON). */
  auth0Passwords: string | null;
  /** Stack Auth: the project to read, and its branch (default `main`). */
  stackProject: string | null;
  stackBranch: string | null;
}

/**
 * The records of a vendor's export or database in Gatehouse's import format (objects, one per
 * user, streamed where the source allows). `source` is a file (Firebase JSON, Clerk CSV, Auth0
 * NDJSON) or a database (Stack Auth, Supabase: a PostgreSQL URL; Better Auth: a SQLite path or
 * PostgreSQL URL).
 *
 * @throws ConfigError when a required option is missing or the source cannot be read.
 */
export async function* vendorRecords(vendor: Vendor, source: string, options: VendorOptions): AsyncGenerator<Record<string, unknown>> {
  if (vendor === 'firebase') {
    if (!options.firebaseHashConfig) throw new ConfigError('--from firebase needs --firebase-hash-config <file>');
    // `auth:export` writes one JSON document; it is read whole (Firebase exports hold the
    // accounts of one project), then converted account by account.
    const config = parseFirebaseHashConfig(await readFile(options.firebaseHashConfig, 'utf8'));
    const doc = JSON.parse(await readFile(source, 'utf8')) as { users?: unknown[] };
    if (!Array.isArray(doc.users)) throw new ConfigError(`${source} is not a Firebase auth:export JSON file (no "users" array)`);
    for (const account of doc.users) yield firebaseAccountToRecord(account as never, config);
    return;
  }
  if (vendor === 'clerk') return yield* clerkRecords(source);
  if (vendor === 'auth0') {
    const hashes = options.auth0Passwords ? await auth0PasswordHashes(options.auth0Passwords) : new Map<string, string>();
    return yield* auth0Records(source, hashes);
  }
  if ((vendor === 'supabase' || vendor === 'stack') && !/^postgres(ql)?:\/\//.test(source))
    throw new ConfigError(
      `--from ${vendor} reads the ${vendor === 'stack' ? 'Stack Auth' : 'Supabase project'} database: give its postgres:// URL`,
    );
  if (vendor === 'stack' && !options.stackProject) throw new ConfigError('--from stack needs --stack-project <Stack project id>');
  const db: SqlSource = await openSqlSource(source);
  try {
    if (vendor === 'stack') yield* stackRecords(db, { projectId: options.stackProject!, branchId: options.stackBranch ?? 'main' });
    else yield* vendor === 'supabase' ? supabaseRecords(db) : betterAuthRecords(db);
  } finally {
    await db.close();
  }
}
