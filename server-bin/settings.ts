/**
 * The one table of the server's settings: every command-line flag and environment variable,
 * with its default and meaning. `gatehouse --help`, the flag parser of `resolveServerConfig`
 * (server-bin/config.ts) and the README's "Running it" table are all produced from it, so a
 * setting is described once (flags win over the
 * environment).
 */
export interface Setting {
  /** The flag without dashes (`data-dir`), or none for environment-only settings. */
  readonly flag?: string;
  /** Placeholder of the flag's value in `--help` (`<path>`). */
  readonly arg?: string;
  /** The environment variable(s); several share one line when they go together. */
  readonly env: readonly string[];
  /** The default, as a person reads it. */
  readonly default: string;
  /** What it does, for `--help` (one short line). */
  readonly help: string;
  /** Longer note for the README table, when `help` is not enough. */
  readonly readme?: string;
}

export const SETTINGS: readonly Setting[] = [
  { flag: 'port', arg: '<n>', env: ['GATEHOUSE_PORT'], default: '8102', help: 'port to listen on' },
  { flag: 'host', arg: '<addr>', env: ['GATEHOUSE_HOST'], default: '127.0.0.1', help: 'address to bind' },
  { flag: 'data-dir', arg: '<path>', env: ['GATEHOUSE_DATA_DIR'], default: './gatehouse-data', help: 'data folder' },
  {
    flag: 'database-url',
    arg: '<url>',
    env: ['GATEHOUSE_DATABASE_URL'],
    default: 'SQLite in the data folder',
    help: 'postgres://… for PostgreSQL',
  },
  { flag: 'base-url', arg: '<url>', env: ['GATEHOUSE_BASE_URL'], default: 'http://<host>:<port>', help: 'public URL (JWT iss, links)' },
  {
    flag: 'workers',
    arg: '<n|auto>',
    env: ['GATEHOUSE_WORKERS'],
    default: 'auto',
    help: 'server processes sharing the port (auto: one per core on PostgreSQL, one on SQLite)',
    readme:
      'each process costs about 100 MB resident idle (single executable; about 120 MB under npm start, which runs the compiled JavaScript); docs/benchmarks.md "Start time and memory", docs/scaling.md',
  },
  { env: ['GATEHOUSE_SECRET'], default: 'generated once, kept in the database', help: 'server secret' },
  { env: ['GATEHOUSE_SMTP_URL'], default: 'none: emails stay in the built-in outbox', help: 'SMTP server for emails' },
  { env: ['GATEHOUSE_ACCESS_TOKEN_TTL'], default: '10min', help: 'access-token lifetime, e.g. 600000, 60s, 10min' },
  {
    env: ['GATEHOUSE_DATABASE_CONNECT_TIMEOUT'],
    default: '5s',
    help: 'PostgreSQL: longest wait for a connection',
    readme: 'docs/operations.md "Database faults"',
  },
  { env: ['GATEHOUSE_DATABASE_STATEMENT_TIMEOUT'], default: '10s', help: 'PostgreSQL: statement_timeout (0 = none)' },
  { env: ['GATEHOUSE_DATABASE_IDLE_IN_TRANSACTION_TIMEOUT'], default: '10s', help: 'PostgreSQL: idle_in_transaction_session_timeout' },
  { env: ['GATEHOUSE_DATABASE_BUSY_TIMEOUT'], default: '5s', help: "SQLite: wait for another process's write lock" },
  {
    env: ['GATEHOUSE_DATABASE_HEALTH_INTERVAL'],
    default: '250ms',
    help: 'pause between two database health probes (0 = no monitor)',
    readme: 'a probe on a connection of its own; docs/operations.md "Database faults"',
  },
  {
    env: ['GATEHOUSE_DATABASE_HEALTH_DEADLINE'],
    default: '1s',
    help: 'a probe unanswered this long marks the database down: requests and /health/ready answer 503 at once until it answers',
  },
  {
    env: ['GATEHOUSE_HTTP_HEADERS_TIMEOUT'],
    default: '10s',
    help: "longest wait for a request's headers; then 408 and the connection closes",
    readme: 'slow clients: docs/operations.md "Slow clients"',
  },
  {
    env: ['GATEHOUSE_HTTP_REQUEST_TIMEOUT'],
    default: '30s',
    help: 'longest wait for a whole request (headers and body); then 408 and the connection closes (0 = none)',
  },
  { env: ['GATEHOUSE_HTTP_KEEP_ALIVE_TIMEOUT'], default: '5s', help: 'idle keep-alive connections close after this' },
  {
    env: ['GATEHOUSE_TRUSTED_PROXY_HOPS'],
    default: '0',
    help: 'reverse proxies in front that append to X-Forwarded-For (throttling uses the address the outermost one added)',
  },
  {
    env: ['GATEHOUSE_ENVIRONMENT'],
    default: 'production',
    help: '`development` allows webhooks, SMTP and OpenID providers on local and private addresses, the development OAuth provider, and shows error causes',
  },
  {
    env: ['GATEHOUSE_CRON_SECRET'],
    default: 'none in production (`mock_cron_secret` in development)',
    help: 'bearer secret of the cron routes `/api/v1/internal/email-queue-step` and `/api/v1/internal/failed-emails-digest` (Gatehouse runs both by itself; these are for schedulers that call them)',
  },
  {
    env: ['GATEHOUSE_EMAIL_MONITOR_SECRET'],
    default: "none in production (upstream's development token in development)",
    help: 'bearer secret of `POST /health/email`, the email health monitor',
  },
  {
    env: ['GATEHOUSE_DNS_SERVERS'],
    default: "the system's resolvers",
    help: 'comma-separated DNS servers (host or host:port) that team domain verification asks for `_gatehouse-challenge` TXT records',
    readme: 'docs/sso.md "Verified domains"',
  },
  {
    env: ['GATEHOUSE_OUTBOUND_PRIVATE_HOSTS'],
    default: 'none',
    help: "comma-separated hosts (names or IP addresses) a project's OpenID provider may use in production mode though they are loopback or private: an identity provider on your private network",
    readme:
      'only the hosts listed; any other tenant-set URL (an OpenID issuer and the endpoints its discovery names, SMTP, webhooks) must reach a public address in production mode; docs/oauth.md',
  },
  {
    env: ['GATEHOUSE_GEOIP_DATABASE'],
    default: 'none: sessions show no place',
    help: 'a MaxMind DB file (GeoLite2 / GeoIP2 / DB-IP City or Country, .mmdb) giving sessions an approximate place of their last use',
    readme:
      'read once at start, never a network call; you download and update the file yourself (its licence is its vendor’s); docs/security.md "Sessions"',
  },
  {
    env: ['GATEHOUSE_DASHBOARD_SIGNUP'],
    default: 'closed after the first owner',
    help: '`open` keeps dashboard sign-up open (owners otherwise invite others through their team)',
  },
  {
    env: ['GATEHOUSE_AI_BASE_URL'],
    default: 'none: the dashboard assistant is off',
    help: 'OpenAI-compatible chat-completions endpoint for the dashboard assistant, e.g. http://127.0.0.1:11434/v1',
    readme: 'docs/assistant.md; loopback and private addresses are allowed (operator setting)',
  },
  { env: ['GATEHOUSE_AI_MODEL'], default: 'none', help: 'model name for the dashboard assistant, e.g. gpt-4o-mini or llama3.1' },
  { env: ['GATEHOUSE_AI_API_KEY'], default: 'none', help: 'API key for the assistant endpoint (local model servers need none)' },
  {
    env: ['GATEHOUSE_TURNSTILE_VERIFY_URL'],
    default: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    help: 'where Cloudflare Turnstile tokens are verified (an operator setting; projects cannot change it)',
    readme: 'docs/security.md "Bot challenges"; for a proxy or a test server speaking siteverify',
  },
  { env: ['GATEHOUSE_TURNSTILE_TIMEOUT'], default: '3s', help: 'longest wait for siteverify; past it the bot challenge counts as `error`' },
  {
    env: ['GATEHOUSE_HASH_CONCURRENCY'],
    default: 'cores − 1 shared among workers, at least 1 per process',
    help: 'password hashes (argon2id) running at once per process',
    readme: 'leaves the request path a core; docs/scaling.md "Admission control"',
  },
  { env: ['GATEHOUSE_HASH_QUEUE'], default: '64', help: 'password hashes waiting per process; beyond, 429 with Retry-After' },
  {
    env: ['GATEHOUSE_URL'],
    default: 'http://127.0.0.1:8102',
    help: '`gatehouse config pull|push` and `gatehouse init`: the running server to talk to (`gatehouse init` with neither this nor an admin key runs Gatehouse inside the app instead)',
    readme: 'docs/config-as-code.md',
  },
  {
    env: ['GATEHOUSE_ADMIN_KEY'],
    default: 'none (STACK_SUPER_SECRET_ADMIN_KEY)',
    help: "`gatehouse init`: the internal project's admin key (creates a project for the dashboard owner), or with --project that project's; `gatehouse import`: the target project's admin key",
  },
  {
    env: ['GATEHOUSE_EXPORT_PASSPHRASE'],
    default: 'none (or --passphrase-file)',
    help: '`gatehouse export --include-secrets` seals password hashes and TOTP secrets under it; `gatehouse import` opens a sealed export with it (at least 12 characters)',
  },
  {
    env: ['GATEHOUSE_CACHE_DIR'],
    default: '$XDG_CACHE_HOME/gatehouse or ~/.cache/gatehouse',
    help: 'single executable: private folder for its native addons',
  },
  {
    env: [
      'GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY',
      'GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY',
      'GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY',
    ],
    default: 'generated on first start and printed once',
    help: 'keys of the internal project',
  },
];

/**
 * The default of a setting, by flag (`port`) or environment variable (`GATEHOUSE_HASH_QUEUE`), as
 * the value the parser uses: only for settings whose default is a literal value, not a sentence.
 *
 * @throws Error when no setting has that name or its default is descriptive text.
 */
export function settingDefault(name: string): string {
  const setting = SETTINGS.find((s) => s.flag === name || s.env.includes(name));
  if (!setting || /\s/.test(setting.default)) throw new Error(`no literal default for setting ${name}`);
  return setting.default;
}

/** The `parseArgs` options of the server's flags (plus `--help` and `--version`). */
export function flagOptions(): Record<string, { type: 'string' | 'boolean'; short?: string }> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const s of SETTINGS) if (s.flag) options[s.flag] = { type: 'string' };
  options.help = { type: 'boolean', short: 'h' };
  options.version = { type: 'boolean', short: 'v' };
  return options;
}

/** `gatehouse --help`, from the table. */
export function usageText(): string {
  const flagged = SETTINGS.filter((s) => s.flag);
  const envOnly = SETTINGS.filter((s) => !s.flag);
  const pad = (text: string, width: number) => (text.length >= width ? `${text} ` : text.padEnd(width));
  const flagLines = flagged.map(
    (s) => `  ${pad(`--${s.flag} ${s.arg ?? ''}`.trimEnd(), 22)}${pad(s.env.join(', '), 24)}${s.help} (default ${s.default})`,
  );
  const envLines = envOnly.map((s) => {
    const name = s.env.length > 1 ? `${s.env[0]}, …` : s.env[0]!;
    const text = `${s.help} (default: ${s.default})`;
    return name.length > 32 ? `  ${name}\n${' '.repeat(35)}${text}` : `  ${pad(name, 33)}${text}`;
  });
  return `Usage: gatehouse [serve] [options]
       gatehouse backup <file> [--data-dir <path> | --database-url sqlite:<path>]
       gatehouse restore <file> [--data-dir <path> | --database-url sqlite:<path>]
       gatehouse copy --from <sqlite file | postgres url> --to <postgres url | sqlite file>
       gatehouse import --project <id> [--from gatehouse|firebase] <file> …
       gatehouse export --project <id> [--out <file>] [--include-secrets] …
       gatehouse config pull|push [--project <id>] [--file <path>] …
       gatehouse init [--port <n>] [--url <url> --admin-key <key>] …

Runs the Gatehouse API, hosted pages and dashboard. \`gatehouse backup --help\` for backups
(\`restore --help\`, \`copy --help\` to move between SQLite and PostgreSQL, \`import --help\`),
\`gatehouse config --help\` for config as code (docs/config-as-code.md), \`gatehouse init --help\`
to set up sign-in in a Vite or Next.js app, in its folder.

Options (each also an environment variable; flags win):
${flagLines.join('\n')}
  -h, --help            show this help
  -v, --version         show the version

Environment only:
${envLines.join('\n')}
`;
}

/** The README's settings table (markdown), from the table. */
export function readmeTable(): string {
  const code = (s: string) => `\`${s}\``;
  const rows = SETTINGS.map((s) => {
    const env = s.env.map(code).join(', ');
    const note = [s.help, s.readme].filter(Boolean).join('; ');
    const fallback = /\s/.test(s.default) ? s.default : code(s.default);
    return `| ${s.flag ? code(`--${s.flag}`) : ''} | ${env} | ${fallback} | ${note} |`;
  });
  return ['| flag | environment | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** Markers around the generated table in README.md. */
export const README_MARKERS = {
  start: '<!-- settings table: generated from server-bin/settings.ts (npm run gen:settings) -->',
  end: '<!-- end of settings table -->',
} as const;
