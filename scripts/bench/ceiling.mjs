// The benchmark's ceiling: a bare node:http server doing only the irreducible work of each
// scenario, with the same better-sqlite3 (same pragmas) and argon2 (same parameters) as Gatehouse:
//   POST /sign-up  parse JSON, argon2id hash, insert user + session, sign an ES256 JWT
//   POST /sign-in  parse JSON, look the user up by e-mail, argon2id verify, insert session, sign JWT
//   GET  /me       check the publishable client key (sha256, one indexed read), verify the ES256 JWT
//                  (node:crypto), read the user with its selected team (one join), answer JSON:
//                  what Stack's protocol needs for GET /users/me with client access
//   GET  /health   readiness probe of the benchmark
// Env: PORT, DB_FILE. Started by compare.mjs.
import { createServer } from 'node:http';
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign, verify } from 'node:crypto';
import Database from 'better-sqlite3';
import argon2 from 'argon2';

const ARGON2 = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const db = new Database(process.env.DB_FILE);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');
db.exec(`create table if not exists users (id text primary key, email text unique not null, password_hash text not null, display_name text, created_at integer not null);
create table if not exists sessions (id text primary key, user_id text not null, token_hash text not null, created_at integer not null);
create table if not exists client_keys (key_hash text primary key, project_id text not null);
create table if not exists teams (id text primary key, display_name text not null);`);
export const CLIENT_KEY = 'pck_ceiling_client_key_0123456789';
db.prepare('insert or ignore into client_keys (key_hash, project_id) values (?, ?)').run(
  createHash('sha256').update(CLIENT_KEY).digest('hex'),
  'internal',
);
db.prepare("insert or ignore into teams (id, display_name) values ('team-1', 'Personal team')").run();
try {
  db.exec('alter table users add column selected_team_id text');
} catch {
  /* already there */
}
const insertUser = db.prepare(
  "insert into users (id, email, password_hash, display_name, created_at, selected_team_id) values (?, ?, ?, null, ?, 'team-1')",
);
const insertSession = db.prepare('insert into sessions (id, user_id, token_hash, created_at) values (?, ?, ?, ?)');
const byEmail = db.prepare('select id, password_hash from users where email = ?');
const byId = db.prepare(
  'select u.id, u.email, u.display_name, u.created_at, t.id as team_id, t.display_name as team_name from users u left join teams t on t.id = u.selected_team_id where u.id = ?',
);
const clientKey = db.prepare('select project_id from client_keys where key_hash = ?');

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const b64 = (x) => Buffer.from(x).toString('base64url');
const header = b64(JSON.stringify({ alg: 'ES256', typ: 'JWT' }));
function signJwt(sub) {
  const now = Math.floor(Date.now() / 1000);
  const body = `${header}.${b64(JSON.stringify({ sub, iat: now, exp: now + 600 }))}`;
  return `${body}.${b64(sign('sha256', Buffer.from(body), { key: privateKey, dsaEncoding: 'ieee-p1363' }))}`;
}
function verifyJwt(token) {
  const [h, p, s] = (token ?? '').split('.');
  if (!s || !verify('sha256', Buffer.from(`${h}.${p}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')))
    return undefined;
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  return claims.exp > Date.now() / 1000 ? claims.sub : undefined;
}
function session(userId) {
  const refresh = randomBytes(32).toString('base64url');
  insertSession.run(randomUUID(), userId, createHash('sha256').update(refresh).digest('hex'), Date.now());
  return { access_token: signJwt(userId), refresh_token: refresh, user_id: userId };
}
function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
async function readJson(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const server = createServer(async (req, res) => {
  try {
    if (req.method === 'GET' && req.url === '/health') return send(res, 200, { status: 'ok' });
    if (req.method === 'GET' && req.url === '/me') {
      const key = clientKey.get(createHash('sha256').update(String(req.headers['x-publishable-client-key'])).digest('hex'));
      if (!key) return send(res, 401, { error: 'bad client key' });
      const sub = verifyJwt(req.headers['x-access-token']);
      const user = sub && byId.get(sub);
      if (!user) return send(res, 401, { error: 'unauthorized' });
      return send(res, 200, {
        id: user.id,
        primary_email: user.email,
        display_name: user.display_name,
        signed_up_at_millis: user.created_at,
        selected_team: user.team_id ? { id: user.team_id, display_name: user.team_name } : null,
      });
    }
    if (req.method === 'POST' && req.url === '/sign-up') {
      const { email, password } = await readJson(req);
      const hash = await argon2.hash(password, ARGON2);
      const id = randomUUID();
      try {
        insertUser.run(id, email, hash, Date.now());
      } catch {
        return send(res, 409, { error: 'taken' });
      }
      return send(res, 200, session(id));
    }
    if (req.method === 'POST' && req.url === '/sign-in') {
      const { email, password } = await readJson(req);
      const user = byEmail.get(email);
      if (!user || !(await argon2.verify(user.password_hash, password))) return send(res, 400, { error: 'mismatch' });
      return send(res, 200, session(user.id));
    }
    send(res, 404, { error: 'not found' });
  } catch (error) {
    send(res, 500, { error: String(error) });
  }
});
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stderr.write(`Listening: http://127.0.0.1:${server.address().port}\n`));
process.once('SIGTERM', () =>
  server.close(() => {
    db.close();
    process.exit(0);
  }),
);
