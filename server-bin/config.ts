import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { flagOptions, settingDefault, usageText } from './settings.ts';
import { parseWorkerCount } from './workers.ts';

/** Server settings resolved from flags and environment. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  baseUrl: string;
  secret: string | undefined;
  smtpUrl: string | undefined;
  accessTokenTtlMs: number | undefined;
  /** Database timeouts from GATEHOUSE_DATABASE_*_TIMEOUT; unset ones take the adapters' defaults. */
  databaseTimeouts: DatabaseTimeouts;
  seedKeys: { publishableClientKey?: string; secretServerKey?: string; superSecretAdminKey?: string };
  /** Bounds on slow clients (GATEHOUSE_HTTP_*_TIMEOUT), in ms: see {@link HttpTimeouts}. */
  httpTimeouts: HttpTimeouts;
  /** Trusted reverse proxies appending to X-Forwarded-For (GATEHOUSE_TRUSTED_PROXY_HOPS, default 0). */
  trustedProxyHops: number;
  /**
   * GATEHOUSE_ENVIRONMENT: `production` (default) refuses outbound requests from tenant settings
   * to loopback, link-local and private addresses (webhooks) and never sends error internals;
   * `development` allows local receivers.
   */
  environment: 'development' | 'production';
  /** `--workers` / GATEHOUSE_WORKERS resolved: server processes sharing the port (server-bin/cluster.ts). */
  workers: number;
  /**
   * The dashboard assistant's model endpoint (GATEHOUSE_AI_BASE_URL, GATEHOUSE_AI_MODEL,
   * GATEHOUSE_AI_API_KEY); unset values are null and the dashboard's server settings may fill them.
   */
  ai: { baseUrl: string | null; model: string | null; apiKey: string | null };
  /** GATEHOUSE_HASH_CONCURRENCY: password hashes at once per process; undefined = the CPU budget. */
  hashConcurrency: number | undefined;
  /** GATEHOUSE_HASH_QUEUE: password hashes waiting per process before 429 (default 64). */
  hashQueue: number;
  /** GATEHOUSE_TURNSTILE_VERIFY_URL and GATEHOUSE_TURNSTILE_TIMEOUT in ms (core/bot-challenge); defaults: Cloudflare's siteverify, 3 s. */
  turnstile: { verifyUrl: string; timeoutMs: number };
  /** GATEHOUSE_OUTBOUND_PRIVATE_HOSTS: hosts an OpenID provider may use on a private network in production mode. */
  outboundPrivateHosts: string[];
  /** GATEHOUSE_DNS_SERVERS: DNS servers for team domain verification; empty = the system's. */
  dnsServers: string[];
  /** GATEHOUSE_GEOIP_DATABASE: the MaxMind DB file sessions' places come from, or undefined. */
  geoipDatabase: string | undefined;
  /** GATEHOUSE_CRON_SECRET and GATEHOUSE_EMAIL_MONITOR_SECRET (core RuntimeOptions.operatorSecrets). */
  operatorSecrets: { cron: string | null; emailMonitor: string | null };
  help: boolean;
  version: boolean;
}

/**
 * Database fault bounds, in ms (README "Database faults"). PostgreSQL: connect (pool wait plus
 * connection set-up, default 5000), statement (`statement_timeout`, default 10000) and
 * idle-in-transaction (default 10000). SQLite: busy (wait for another process's lock, default
 * 5000). 0 turns a PostgreSQL server-side timeout off. Both: the health monitor's probe
 * interval (default 500, 0 = off) and deadline (default 1000; core/storage/health-monitor.ts).
 */
export interface DatabaseTimeouts {
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  busyTimeoutMs?: number;
  healthIntervalMs?: number;
  healthDeadlineMs?: number;
}

/**
 * How long the embedded node:http server waits on a client, in ms (Node's own
 * defaults let a body trickled at 1 byte/s hold a connection for 5 minutes). `headersTimeoutMs`:
 * until the request's headers are in (default 10000); `requestTimeoutMs`: until the whole request
 * is in (default 30000; 0 = none); past either Node answers 408 and closes the connection.
 * `keepAliveTimeoutMs`: an idle keep-alive connection closes (default 5000). Responses are not
 * bounded (event streams stay open).
 */
export interface HttpTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/** A configuration problem with a one-line message for the user. */
export class ConfigError extends Error {}

/** Environment variable that keeps dashboard sign-up open after the first owner: `open`. */
export const DASHBOARD_SIGNUP_ENV = 'GATEHOUSE_DASHBOARD_SIGNUP';

/**
 * Whether open sign-up to the dashboard (the internal project) stays enabled after the first
 * owner: true when `GATEHOUSE_DASHBOARD_SIGNUP=open`, case-insensitive.
 * The server asks at each sign-up, so a running server follows its environment.
 */
export function dashboardSignUpForcedOpen(env: NodeJS.ProcessEnv): boolean {
  return (env[DASHBOARD_SIGNUP_ENV] ?? '').trim().toLowerCase() === 'open';
}

/** `gatehouse --help`, produced from the settings table (server-bin/settings.ts). */
export const USAGE = usageText();

/** Parses `600000`, `60s`, `10m`, `10min`, `1h` into milliseconds. */
export function parseDuration(value: string): number {
  const m = /^(\d+)\s*(ms|s|m|min|h)?$/.exec(value.trim());
  if (!m) throw new ConfigError(`Invalid duration "${value}": use milliseconds or a number with s, min or h.`);
  const n = Number(m[1]);
  const unit = m[2] ?? 'ms';
  return n * ({ ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 } as const)[unit as 'ms'];
}

/**
 * Resolves the server config from command-line arguments and environment.
 *
 * @throws ConfigError with a one-line message for an unknown flag or a bad value.
 */
export function resolveServerConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: flagOptions(),
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  const str = (flag: string, name: string): string | undefined => (values[flag] as string | undefined) ?? (env[name] || undefined);
  const portText = str('port', 'GATEHOUSE_PORT') ?? settingDefault('port');
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535)
    throw new ConfigError(`Invalid port "${portText}": use a number from 0 to 65535.`);
  const host = str('host', 'GATEHOUSE_HOST') ?? settingDefault('host');
  const baseUrl = (str('base-url', 'GATEHOUSE_BASE_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(
    /\/+$/,
    '',
  );
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`Invalid base URL "${baseUrl}".`);
  }
  const environment = env.GATEHOUSE_ENVIRONMENT || settingDefault('GATEHOUSE_ENVIRONMENT');
  if (environment !== 'production' && environment !== 'development')
    throw new ConfigError(`Invalid GATEHOUSE_ENVIRONMENT "${environment}": use production or development.`);
  const ttl = env.GATEHOUSE_ACCESS_TOKEN_TTL;
  const duration = (name: string): number | undefined => (env[name] ? parseDuration(env[name]!) : undefined);
  const databaseTimeouts: DatabaseTimeouts = Object.fromEntries(
    Object.entries({
      connectTimeoutMs: duration('GATEHOUSE_DATABASE_CONNECT_TIMEOUT'),
      statementTimeoutMs: duration('GATEHOUSE_DATABASE_STATEMENT_TIMEOUT'),
      idleInTransactionTimeoutMs: duration('GATEHOUSE_DATABASE_IDLE_IN_TRANSACTION_TIMEOUT'),
      busyTimeoutMs: duration('GATEHOUSE_DATABASE_BUSY_TIMEOUT'),
      healthIntervalMs: duration('GATEHOUSE_DATABASE_HEALTH_INTERVAL'),
      healthDeadlineMs: duration('GATEHOUSE_DATABASE_HEALTH_DEADLINE'),
    }).filter(([, v]) => v !== undefined),
  );
  if (databaseTimeouts.healthDeadlineMs === 0)
    throw new ConfigError(
      'Invalid GATEHOUSE_DATABASE_HEALTH_DEADLINE "0": use a duration above 0 (GATEHOUSE_DATABASE_HEALTH_INTERVAL=0 turns the monitor off).',
    );
  const httpTimeouts = resolveHttpTimeouts(env);
  const aiBaseUrl = env.GATEHOUSE_AI_BASE_URL?.trim() || null;
  if (aiBaseUrl !== null && !/^https?:\/\/[^\s]+$/.test(aiBaseUrl))
    throw new ConfigError(`Invalid GATEHOUSE_AI_BASE_URL "${aiBaseUrl}": use an http(s) URL such as http://127.0.0.1:11434/v1.`);
  const turnstileUrl = env.GATEHOUSE_TURNSTILE_VERIFY_URL?.trim() || settingDefault('GATEHOUSE_TURNSTILE_VERIFY_URL');
  if (!/^https?:\/\/[^\s]+$/.test(turnstileUrl))
    throw new ConfigError(`Invalid GATEHOUSE_TURNSTILE_VERIFY_URL "${turnstileUrl}": use an http(s) URL.`);
  const turnstileTimeoutMs = parseDuration(env.GATEHOUSE_TURNSTILE_TIMEOUT || settingDefault('GATEHOUSE_TURNSTILE_TIMEOUT'));
  if (turnstileTimeoutMs < 1 || turnstileTimeoutMs > 60_000) throw new ConfigError('Invalid GATEHOUSE_TURNSTILE_TIMEOUT: use 1ms to 60s.');
  const dnsServers = (env.GATEHOUSE_DNS_SERVERS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (const server of dnsServers)
    if (isIP(server) === 0 && !/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]):\d{1,5}$/.test(server))
      throw new ConfigError(
        `Invalid GATEHOUSE_DNS_SERVERS entry "${server}": use an IP address, optionally with :port (IPv6 in brackets).`,
      );
  const hopsText = env.GATEHOUSE_TRUSTED_PROXY_HOPS || settingDefault('GATEHOUSE_TRUSTED_PROXY_HOPS');
  if (!/^\d+$/.test(hopsText) || Number(hopsText) > 10)
    throw new ConfigError(`Invalid GATEHOUSE_TRUSTED_PROXY_HOPS "${hopsText}": use a number from 0 to 10.`);
  const count = (name: string, min: number): number | undefined => {
    const text = env[name];
    if (!text) return undefined;
    if (!/^\d+$/.test(text) || Number(text) < min)
      throw new ConfigError(`Invalid ${name} "${text}": use a whole number of at least ${min}.`);
    return Number(text);
  };
  const workersText = str('workers', 'GATEHOUSE_WORKERS') ?? settingDefault('workers');
  // `auto` stays at one process on embedded SQLite: one file has one writer, and several processes
  // contending for it answer concurrent sign-ups with DATABASE_UNAVAILABLE (docs/scaling.md).
  const onSqlite = !str('database-url', 'GATEHOUSE_DATABASE_URL');
  const workers = workersText.trim().toLowerCase() === 'auto' && onSqlite ? 1 : parseWorkerCount(workersText);
  if (workers === null) throw new ConfigError(`Invalid workers "${workersText}": use auto or a number from 1 to 64.`);
  return {
    port,
    host,
    workers,
    dataDir: str('data-dir', 'GATEHOUSE_DATA_DIR') ?? settingDefault('data-dir'),
    databaseUrl: str('database-url', 'GATEHOUSE_DATABASE_URL'),
    baseUrl,
    secret: env.GATEHOUSE_SECRET || undefined,
    smtpUrl: env.GATEHOUSE_SMTP_URL || undefined,
    accessTokenTtlMs: ttl ? parseDuration(ttl) : undefined,
    databaseTimeouts,
    httpTimeouts,
    seedKeys: {
      ...(env.GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY
        ? { publishableClientKey: env.GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY }
        : {}),
      ...(env.GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY ? { secretServerKey: env.GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY } : {}),
      ...(env.GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY
        ? { superSecretAdminKey: env.GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY }
        : {}),
    },
    trustedProxyHops: Number(hopsText),
    environment,
    ai: { baseUrl: aiBaseUrl, model: env.GATEHOUSE_AI_MODEL?.trim() || null, apiKey: env.GATEHOUSE_AI_API_KEY || null },
    hashConcurrency: count('GATEHOUSE_HASH_CONCURRENCY', 1),
    hashQueue: count('GATEHOUSE_HASH_QUEUE', 0) ?? Number(settingDefault('GATEHOUSE_HASH_QUEUE')),
    turnstile: { verifyUrl: turnstileUrl, timeoutMs: turnstileTimeoutMs },
    outboundPrivateHosts: (env.GATEHOUSE_OUTBOUND_PRIVATE_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    dnsServers,
    geoipDatabase: env.GATEHOUSE_GEOIP_DATABASE?.trim() || undefined,
    operatorSecrets: { cron: env.GATEHOUSE_CRON_SECRET || null, emailMonitor: env.GATEHOUSE_EMAIL_MONITOR_SECRET || null },
    help: values.help === true,
    version: values.version === true,
  };
}

/**
 * The slow-client bounds from GATEHOUSE_HTTP_*_TIMEOUT, or the settings table's defaults.
 *
 * @throws ConfigError for a bad duration, or a headers timeout longer than the request timeout
 *   (Node refuses that pair).
 */
export function resolveHttpTimeouts(env: NodeJS.ProcessEnv): HttpTimeouts {
  const read = (name: string) => parseDuration(env[name] || settingDefault(name));
  const timeouts = {
    headersTimeoutMs: read('GATEHOUSE_HTTP_HEADERS_TIMEOUT'),
    requestTimeoutMs: read('GATEHOUSE_HTTP_REQUEST_TIMEOUT'),
    keepAliveTimeoutMs: read('GATEHOUSE_HTTP_KEEP_ALIVE_TIMEOUT'),
  };
  if (timeouts.requestTimeoutMs > 0 && timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) {
    throw new ConfigError('GATEHOUSE_HTTP_HEADERS_TIMEOUT must not be longer than GATEHOUSE_HTTP_REQUEST_TIMEOUT.');
  }
  return timeouts;
}

/** What `gatehouse backup` copies, and where. */
export interface BackupConfig {
  /** Absolute path of the live SQLite database. */
  source: string;
  /** Absolute path of the backup file to create. */
  destination: string;
  help: boolean;
}

/** `gatehouse backup --help`. */
export const BACKUP_USAGE = `Usage: gatehouse backup <file> [options]

Copies the SQLite database to <file> with SQLite's online backup API: safe while the server
runs, and the copy is a consistent snapshot. <file> must not exist. For PostgreSQL use pg_dump.

Options:
  --data-dir <path>     GATEHOUSE_DATA_DIR      data folder (default ./gatehouse-data)
  --database-url <url>  GATEHOUSE_DATABASE_URL  sqlite:<path> (postgres:// is refused)
  -h, --help            show this help
`;

/**
 * Resolves `gatehouse backup <file>` arguments: the source database from `--database-url`
 * (`sqlite:`/`file:` only) or `<data-dir>/gatehouse.db`.
 *
 * @throws ConfigError when the file is missing or exists, the source does not exist, or the
 *   database is PostgreSQL.
 */
export function resolveBackupConfig(argv: string[], env: NodeJS.ProcessEnv): BackupConfig {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see gatehouse backup --help)`);
  }
  if (values.help === true) return { source: '', destination: '', help: true };
  if (positionals.length !== 1)
    throw new ConfigError('Give exactly one backup file: gatehouse backup <file> (see gatehouse backup --help)');
  const databaseUrl = (values['database-url'] as string | undefined) ?? (env.GATEHOUSE_DATABASE_URL || undefined);
  let source: string;
  if (!databaseUrl) {
    source = join(
      resolve((values['data-dir'] as string | undefined) ?? (env.GATEHOUSE_DATA_DIR || settingDefault('data-dir'))),
      'gatehouse.db',
    );
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('gatehouse backup copies SQLite databases; for PostgreSQL use pg_dump.');
  } else {
    const m = /^(?:sqlite|file):(.+)$/.exec(databaseUrl);
    if (!m) throw new ConfigError(`Unsupported database URL "${databaseUrl}": use sqlite:<path>.`);
    source = resolve(m[1]!);
  }
  if (!existsSync(source)) throw new ConfigError(`No database at ${source}: pass --data-dir or --database-url.`);
  const destination = resolve(positionals[0]!);
  if (existsSync(destination)) throw new ConfigError(`${destination} already exists; choose a new file name.`);
  return { source, destination, help: false };
}
