// Better Auth server for the benchmark. compare.mjs copies this file into the scratch folder
// where better-auth is installed (never into the repo) and runs it with node there.
// Env: PORT, DB_FILE, REPO (to load the repo's better-sqlite3 and argon2: the same native
// builds Gatehouse uses), HASH = "default" (Better Auth's scrypt N=16384 r=16 p=1) or "argon2id"
// (Gatehouse's parameters: m=19456 KiB, t=2, p=1).
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { betterAuth } from 'better-auth';
import { toNodeHandler } from 'better-auth/node';
import { getMigrations } from 'better-auth/db/migration';

const repoRequire = createRequire(join(process.env.REPO, 'package.json'));
const Database = repoRequire('better-sqlite3');
const port = Number(process.env.PORT);
const baseURL = `http://127.0.0.1:${port}`;
const db = new Database(process.env.DB_FILE);
// The same pragmas as Gatehouse's SQLite adapter.
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');

let password;
if (process.env.HASH === 'argon2id') {
  const argon2 = repoRequire('argon2');
  const options = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };
  password = { hash: (plain) => argon2.hash(plain, options), verify: ({ hash, password: plain }) => argon2.verify(hash, plain) };
}

const options = {
  baseURL,
  secret: 'benchmark-secret-benchmark-secret-0123456789',
  database: db,
  emailAndPassword: { enabled: true, ...(password ? { password } : {}) },
  rateLimit: { enabled: false },
  trustedOrigins: [baseURL],
  telemetry: { enabled: false },
};
const { runMigrations } = await getMigrations(options);
await runMigrations();
const auth = betterAuth(options);
const server = createServer(toNodeHandler(auth));
server.keepAliveTimeout = 5000;
server.listen(port, '127.0.0.1', () => process.stderr.write(`Listening: ${baseURL}\n`));
process.once('SIGTERM', () =>
  server.close(() => {
    db.close();
    process.exit(0);
  }),
);
