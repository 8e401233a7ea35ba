#!/usr/bin/env node
// npm run build:binary → dist/gatehouse: one Node single executable application (SEA) holding the
// bundled server (esbuild, CommonJS), the native addons (better-sqlite3, argon2) and the prebuilt
// static files (hosted pages, dashboard) as SEA assets. At start the addons are written to a
// private versioned cache folder and loaded with process.dlopen (server-bin/sea/native.ts).
//
// Usage: node scripts/build-binary.mjs [--out dist/gatehouse] [--static <dir>=<mount>]… [--ui-if-missing] [--if-stale]
//
// `--if-stale` (the tests, and CI before them) keeps an existing binary whose inputs have not
// changed: the bundles are built as always (about 2 s), then the hash of everything that would go
// into the binary (bundles, addons, wasm, docs, static files, the manifest, this Node's version and
// executable) is compared with the one written beside it (`<out>.inputs`) by the build that made
// it. Only the slow part (SEA blob, copying Node, postject: 10–15 s) is skipped.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const outArg = process.argv.indexOf('--out');
const out = resolve(root, outArg > 0 ? process.argv[outArg + 1] : 'dist/gatehouse');
const work = join(dirname(out), 'sea');
const started = Date.now();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * Prebuilt static folders embedded and served by the binary: `dir` (relative to the repo) is
 * served under `mount`; `fallbacks` maps a URL prefix to the file single-page routes get.
 * A folder that does not exist (not built yet) is skipped with a note. Add UI bundles here.
 */
const STATIC_FOLDERS = [
  { dir: 'dist/ui/handler', mount: '/handler', fallbacks: { '/handler/': '/handler/index.html' } },
  // No catch-all fallback for the dashboard: `/projects/<id>/handler/*` and other app routes must
  // reach the server. `/` serves `/index.html`; add client-route prefixes here when needed.
  { dir: 'dist/ui/dashboard', mount: '/', fallbacks: {} },
];
// `--static <dir>=<mount>` (repeatable) embeds more folders, e.g. in tests; `<mount>/index.html`
// becomes the fallback of `<mount>/`.
for (let i = 0; i < process.argv.length; i++) {
  if (process.argv[i] !== '--static') continue;
  const [dir, mount = '/'] = process.argv[i + 1].split('=');
  const base = mount.replace(/\/$/, '');
  STATIC_FOLDERS.push({ dir: resolve(dir), mount, fallbacks: { [`${base}/`]: `${base}/index.html` } });
}

/** Native addons: asset file name → path of the built `.node` for this platform. */
function nativeAddons() {
  const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'));
  const argonDir = dirname(require.resolve('argon2/package.json'));
  const gypBuild = createRequire(join(argonDir, 'package.json'))('node-gyp-build');
  return {
    'better_sqlite3.node': join(sqliteDir, 'build', 'Release', 'better_sqlite3.node'),
    'argon2.node': gypBuild.path(argonDir),
  };
}

/**
 * esbuild plugin: QuickJS's Emscripten module (email templates run in it) reads its `.wasm` next
 * to itself and its ESM build uses `import()`, neither of which works in the SEA. The CommonJS
 * build is used instead, its factory wrapped to pass the embedded wasm as `wasmBinary`. Only the
 * variants in EMBEDDED_QUICKJS (the one `getQuickJS()` uses) carry their wasm; another variant
 * fails with "not embedded" when used. `wasmAssets` collects asset key → file.
 */
const EMBEDDED_QUICKJS = ['quickjs-wasmfile-release-sync'];
function quickjsWasmPlugin(wasmAssets) {
  const loader = join(root, 'server-bin', 'sea', 'native.ts');
  return {
    name: 'gatehouse-quickjs-wasm',
    setup(build) {
      build.onResolve({ filter: /^@jitl\/quickjs-wasmfile-[a-z-]+\/emscripten-module$/ }, (args) => {
        const variant = args.path.split('/')[1];
        const dir = dirname(createRequire(args.importer).resolve(`@jitl/${variant}/package.json`));
        return { path: join(dir, 'dist', 'emscripten-module.cjs'), namespace: 'gatehouse-quickjs', pluginData: { variant, dir } };
      });
      build.onLoad({ filter: /.*/, namespace: 'gatehouse-quickjs' }, (args) => {
        const { variant, dir } = args.pluginData;
        const key = `wasm/${variant}.wasm`;
        if (EMBEDDED_QUICKJS.includes(variant)) wasmAssets[key] = join(dir, 'dist', 'emscripten-module.wasm');
        const wrap = `
;{const raw = module.exports;
const wrapped = (arg = {}) => { if (!arg.wasmBinary) arg.wasmBinary = require(${JSON.stringify(loader)}).embeddedAsset(${JSON.stringify(key)}); return raw(arg); };
module.exports = wrapped; module.exports.default = wrapped;}
`;
        return { contents: readFileSync(args.path, 'utf8') + wrap, resolveDir: dirname(args.path), loader: 'js' };
      });
    },
  };
}

/**
 * esbuild plugin: the packages that find their addon on disk (`bindings` for better-sqlite3,
 * `node-gyp-build` for argon2) are replaced by a loader of the embedded asset.
 */
function embeddedAddonsPlugin() {
  const loader = join(root, 'server-bin', 'sea', 'native.ts');
  const owners = { 'better-sqlite3': 'better_sqlite3.node', argon2: 'argon2.node' };
  return {
    name: 'gatehouse-embedded-addons',
    setup(build) {
      build.onResolve({ filter: /^(bindings|node-gyp-build)$/ }, (args) => {
        const owner = Object.keys(owners).find((name) => args.importer.split(sep).includes(name));
        if (!owner) return { errors: [{ text: `${args.path} imported by ${args.importer}: no embedded addon is known for it` }] };
        return { path: owners[owner], namespace: 'gatehouse-addon' };
      });
      build.onLoad({ filter: /.*/, namespace: 'gatehouse-addon' }, (args) => ({
        contents: `const { loadEmbeddedAddon } = require(${JSON.stringify(loader)});\nconst addon = () => loadEmbeddedAddon(${JSON.stringify(args.path)});\nmodule.exports = addon;\nmodule.exports.path = () => ${JSON.stringify(args.path)};\n`,
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

/**
 * SHA-256 (hex) of what goes into the binary: the main bundle, every asset (key and content; the
 * manifest is one of them), this script (the SEA settings), and the Node executable the binary is
 * copied from (version, path, size, modification time: hashing its 100 MB would cost more than the
 * check saves).
 */
function inputHash(bundle, assetFiles) {
  const hash = createHash('sha256');
  const node = statSync(process.execPath);
  hash.update(JSON.stringify([process.version, process.arch, process.execPath, node.size, node.mtimeMs]));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  hash.update(readFileSync(bundle));
  for (const key of Object.keys(assetFiles).sort()) hash.update(`\0${key}\0`).update(readFileSync(assetFiles[key]));
  return hash.digest('hex');
}

function walk(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) files.push(...walk(full));
    else files.push(full);
  }
  return files;
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// 0. The prebuilt UI bundles, when the UI build exists. `--ui-if-missing` (used by the tests,
// which run beside other tests reading dist/ui) builds them only when dist/ui is absent.
const uiIfMissing = process.argv.includes('--ui-if-missing');
const ifStale = process.argv.includes('--if-stale');
for (const script of ['build-ui.mjs']) {
  if (!existsSync(join(root, 'scripts', script))) continue;
  if (uiIfMissing && existsSync(join(root, 'dist', 'ui'))) continue;
  const ui = spawnSync(process.execPath, [join(root, 'scripts', script), ...(ifStale ? ['--if-stale'] : [])], {
    cwd: root,
    stdio: 'inherit',
  });
  if (ui.status !== 0) throw new Error(`scripts/${script} failed`);
}

// 1. Bundle the CLI (which starts the server) into one CommonJS file.
const bundlePath = join(work, 'gatehouse.cjs');
const wasmAssets = {};
await esbuild.build({
  entryPoints: [join(root, 'server-bin', 'cli.ts')],
  outfile: bundlePath,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  // pg's optional native driver is never used.
  external: ['pg-native'],
  // Modules that locate files next to themselves get a location inside a folder that does not
  // exist, so they fall back (or fail) cleanly instead of crashing on an empty import.meta.
  define: {
    __GATEHOUSE_VERSION__: JSON.stringify(pkg.version),
    'import.meta.url': JSON.stringify('file:///gatehouse-sea/server-bin/gatehouse.cjs'),
  },
  plugins: [embeddedAddonsPlugin(), quickjsWasmPlugin(wasmAssets)],
});

// 1b. Worker threads: a SEA has no files a Worker could load, so each worker entry is bundled
// on its own and embedded as an asset; the server starts it with `new Worker(code, { eval: true })`
// (core/emails/render-pool.ts, configured in server-bin/cli.ts).
const WORKERS = {
  'workers/email-render.cjs': join(root, 'core', 'emails', 'render-worker.ts'),
  'workers/cel.cjs': join(root, 'core', 'sign-up-rules', 'cel-worker.ts'),
};
const workerAssets = {};
for (const [key, entry] of Object.entries(WORKERS)) {
  const file = join(work, key.replace('/', '-'));
  await esbuild.build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifySyntax: true,
    minifyWhitespace: true,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'import.meta.url': JSON.stringify(`file:///gatehouse-sea/${key}`) },
    // esbuild's executable cannot run inside the SEA; the render worker then compiles with Sucrase
    // (core/emails/transform.ts), its import of esbuild failing at run time.
    external: ['esbuild'],
    plugins: [quickjsWasmPlugin(wasmAssets)],
  });
  workerAssets[key] = file;
}

// 2. Assets: native addons, static files, workers, and the manifest describing them.
const assets = { ...wasmAssets, ...workerAssets };
const manifest = { version: pkg.version, addons: {}, static: [], fallbacks: {}, docs: [] };
// Gatehouse's documentation, the dashboard assistant's context (server-bin/ai-docs.ts).
for (const name of readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()) {
  assets[`docs/${name}`] = join(root, 'docs', name);
  manifest.docs.push(name);
}
// The OpenAPI document served at /api/v1/openapi.json (server-bin/api/openapi.ts).
assets['docs/openapi.json'] = join(root, 'docs', 'openapi.json');
// The server's render of the hosted sign-in and sign-up pages (server-bin/hosted-render.ts).
const hostedRender = join(root, 'dist/ui/hosted-ssr/render.cjs');
if (existsSync(hostedRender)) assets['hosted-ssr/render.cjs'] = hostedRender;
else console.error('build-binary: dist/ui/hosted-ssr/render.cjs not built; sign-in renders in the browser only.');
for (const [file, path] of Object.entries(nativeAddons())) {
  if (!existsSync(path)) throw new Error(`Native addon ${file} not found at ${path}: run npm ci first.`);
  assets[`native/${file}`] = path;
  manifest.addons[file] = createHash('sha256').update(readFileSync(path)).digest('hex');
}
for (const folder of STATIC_FOLDERS) {
  const dir = resolve(root, folder.dir);
  if (!existsSync(dir)) {
    console.error(`build-binary: ${folder.dir} not built; not embedded.`);
    continue;
  }
  for (const full of walk(dir)) {
    const urlPath = `${folder.mount.replace(/\/$/, '')}/${relative(dir, full).split(sep).join('/')}`;
    assets[`static${urlPath}`] = full;
    manifest.static.push(urlPath);
  }
  Object.assign(manifest.fallbacks, folder.fallbacks);
}
const manifestPath = join(work, 'manifest.json');
writeFileSync(manifestPath, JSON.stringify(manifest));
assets['gatehouse-manifest.json'] = manifestPath;

// 2b. With --if-stale, an existing binary built from the same inputs is kept.
const stamp = `${out}.inputs`;
const inputs = inputHash(bundlePath, assets);
if (ifStale && existsSync(out) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputs) {
  console.error(`build-binary: ${relative(process.cwd(), out)} is up to date (same inputs); kept.`);
  process.exit(0);
}
rmSync(stamp, { force: true });

// 3. The SEA blob, injected into a copy of this node binary.
const blob = join(work, 'sea-prep.blob');
const seaConfig = join(work, 'sea-config.json');
writeFileSync(
  seaConfig,
  JSON.stringify({ main: bundlePath, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2),
);
execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: ['ignore', 'ignore', 'inherit'] });
rmSync(out, { force: true });
copyFileSync(process.execPath, out);
chmodSync(out, 0o755);
const postject = join(dirname(require.resolve('postject/package.json')), 'dist', 'cli.js');
// postject prints harmless "Can't find string offset for section name '.note…'" warnings on
// Linux; show its output only when it fails.
const injected = spawnSync(
  process.execPath,
  [postject, out, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'],
  { encoding: 'utf8' },
);
if (injected.status !== 0) {
  process.stderr.write(`${injected.stdout}${injected.stderr}`);
  throw new Error(`postject failed with status ${injected.status}`);
}

writeFileSync(stamp, `${inputs}\n`);

const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
console.error(
  `build-binary: ${relative(process.cwd(), out)} (${mb(statSync(out).size)}; bundle ${mb(statSync(bundlePath).size)}, ${Object.keys(manifest.addons).length} native addons, ${Object.keys(wasmAssets).length} wasm, ${manifest.static.length} static files) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
