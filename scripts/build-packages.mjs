#!/usr/bin/env node
// Builds the two browser-facing npm packages from this repository's sources into dist/packages/:
//   gatehouse-sdk    sdk/ (ClientApp, ServerApp, AdminApp, token stores, errors, OAuth resource-server helpers);
//                    depends on `cookie` and `jose` only
//   gatehouse-react  sdk/react.tsx + ui/react.ts (GatehouseProvider, hooks, components); React and
//                    React DOM are peer dependencies, the SDK a dependency (one copy of its classes)
// JavaScript comes from esbuild (one ES module per entry, dependencies left as imports), the `.d.ts`
// files from tsc (declaration-only emit, relative `.ts` specifiers rewritten to `.js`). Neither
// package contains or depends on the server (argon2, better-sqlite3, pg, koa…).
// `node scripts/build-packages.mjs [outdir]` (`npm run build:packages`) also packs each folder into
// an installable tarball beside it (dist/packages/gatehouse-sdk-<version>.tgz, …): install both in
// one command, `npm i <dir>/gatehouse-sdk-<version>.tgz <dir>/gatehouse-react-<version>.tgz`, so
// the React package's dependency on the SDK is met by the SDK's tarball, not the registry.
// scripts/check-packages.mjs installs the tarballs into a scratch React app and checks them.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashInputs, withLock } from './build-once.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The npm names (checked free with `npm view <name>`: E404), shared version and repository. */
export const PACKAGE_NAMES = { sdk: 'gatehouse-sdk', react: 'gatehouse-react', server: 'gatehouse-server' };

/** Packages the browser packages must never contain or pull in (the server's runtime). */
export const SERVER_DEPENDENCIES = [
  'argon2',
  'better-sqlite3',
  'pg',
  'koa',
  '@koa/router',
  'kysely',
  'nodemailer',
  'pino',
  'tsx',
  'sucrase',
  'quickjs-emscripten',
  'preact',
  'oauth4webapi',
  '@simplewebauthn/server',
];

const rootPackage = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lockedVersion = (name) => {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const entry = lock.packages?.[`node_modules/${name}`];
  if (!entry) throw new Error(`${name} is not in package-lock.json`);
  return entry.version;
};

const SDK_DIR = join(root, 'sdk');
const SDK_REACT = join(root, 'sdk/react.tsx');
/** A source file that belongs to the SDK package (everything under sdk/ except the React bindings). */
const inSdkPackage = (file) => file.startsWith(SDK_DIR + sep) && file !== SDK_REACT && !/\.test\.tsx?$/.test(file);

/**
 * esbuild plugin for the React package: an import that resolves into the SDK package becomes an
 * import of `gatehouse-sdk` itself, so the app and the components share one ClientApp and one
 * set of error classes (`instanceof` holds across them).
 */
const sdkAsPackage = {
  name: 'sdk-as-package',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      return inSdkPackage(target) ? { path: PACKAGE_NAMES.sdk, external: true } : undefined;
    });
  },
};

/**
 * Bundles oauth4webapi into the SDK (its PKCE helpers, RFC 7636, are all the SDK uses, a few
 * hundred bytes once tree-shaken) instead of leaving an import: a browser app then installs no
 * OAuth client library (SERVER_DEPENDENCIES: the server is oauth4webapi's main user).
 */
const bundleOauth4webapi = {
  name: 'bundle-oauth4webapi',
  setup(b) {
    b.onResolve({ filter: /^oauth4webapi$/ }, () => ({ path: fileURLToPath(import.meta.resolve('oauth4webapi')) }));
  },
};

const esbuildBase = {
  bundle: true,
  format: 'esm',
  target: 'es2020',
  jsx: 'automatic',
  // Dependencies stay imports: the app's bundler resolves them once (one React).
  packages: 'external',
  legalComments: 'none',
  logLevel: 'warning',
  sourcemap: true,
  write: true,
};

/** Emits `.d.ts` for the package entries with tsc into `outDir` (mirrors the repository layout). */
function emitDeclarations(outDir) {
  const config = join(root, 'dist', 'tsconfig.packages.json');
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(
    config,
    JSON.stringify(
      {
        extends: '../tsconfig.json',
        compilerOptions: {
          noEmit: false,
          declaration: true,
          emitDeclarationOnly: true,
          outDir,
          rootDir: '..',
          noUnusedLocals: false,
          rewriteRelativeImportExtensions: true,
          typeRoots: ['../node_modules/@types'],
        },
        include: [],
        files: ['../sdk/index.ts', '../sdk/index.browser.ts', '../ui/react.ts', '../ui/components/qrcode-core.d.ts'],
      },
      null,
      2,
    ),
  );
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const r = spawnSync(tsc, ['-p', config], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tsc (declarations) failed:\n${r.stdout}${r.stderr}`);
}

const walk = (dir) =>
  readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });

/**
 * Copies declaration files from the tsc output into a package, rewriting relative specifiers
 * (`./x.ts` → `./x.js`) and, with `mapSpecifier`, any specifier it answers for.
 */
function copyDeclarations(fromRoot, files, toDir, mapSpecifier = () => undefined) {
  for (const file of files) {
    const rel = relative(fromRoot, file);
    let text = readFileSync(file, 'utf8');
    text = text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\2/g, (all, head, quote, spec) => {
      const absolute = resolve(dirname(join(root, rel)), spec);
      const mapped = mapSpecifier(absolute);
      if (mapped) return `${head}${quote}${mapped}${quote}`;
      return `${head}${quote}${spec.replace(/\.tsx?$/, '.js')}${quote}`;
    });
    const out = join(toDir, rel);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
  }
}

/** Builds both packages into `outDir` (default dist/packages); returns their folders. */
export async function buildPackages(outDir = join(root, 'dist', 'packages')) {
  const pkg = rootPackage();
  const version = pkg.version;
  const sdkDir = join(outDir, PACKAGE_NAMES.sdk);
  const reactDir = join(outDir, PACKAGE_NAMES.react);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(sdkDir, { recursive: true });
  mkdirSync(reactDir, { recursive: true });

  const declDir = join(root, 'dist', 'declarations');
  rmSync(declDir, { recursive: true, force: true });
  emitDeclarations(declDir);
  const declFiles = walk(declDir).filter((f) => f.endsWith('.d.ts'));
  const declOf = (top) => declFiles.filter((f) => relative(declDir, f).split(sep)[0] === top);

  // gatehouse-sdk: a Node entry (with the in-process transport) and a browser entry.
  await build({
    ...esbuildBase,
    platform: 'node',
    entryPoints: { index: join(root, 'sdk/index.ts') },
    outdir: join(sdkDir, 'dist'),
    plugins: [bundleOauth4webapi],
  });
  await build({
    ...esbuildBase,
    platform: 'browser',
    entryPoints: { 'index.browser': join(root, 'sdk/index.browser.ts') },
    outdir: join(sdkDir, 'dist'),
    plugins: [bundleOauth4webapi],
  });
  copyDeclarations(declDir, [...declOf('sdk').filter((f) => !f.endsWith(`${sep}react.d.ts`)), ...declOf('core')], join(sdkDir, 'types'));
  writeFileSync(
    join(sdkDir, 'package.json'),
    JSON.stringify(
      {
        name: PACKAGE_NAMES.sdk,
        version,
        description: 'Client, server and admin SDK for Gatehouse (Stack Auth REST API v1 compatible), for browsers and Node.',
        license: pkg.license,
        type: 'module',
        sideEffects: false,
        // Browsers (and bundlers targeting them) get the entry without the Node-only in-process
        // transport; its types need no @types/node. Node gets everything.
        exports: {
          '.': {
            browser: { types: './types/sdk/index.browser.d.ts', default: './dist/index.browser.js' },
            node: { types: './types/sdk/index.d.ts', default: './dist/index.js' },
            default: { types: './types/sdk/index.browser.d.ts', default: './dist/index.browser.js' },
          },
          './package.json': './package.json',
        },
        types: './types/sdk/index.browser.d.ts',
        files: ['dist', 'types', 'README.md'],
        engines: { node: pkg.engines.node },
        // jose: the Node entry's verifyOAuthAccessToken (resource servers, MCP servers) verifies JWTs with it.
        dependencies: { cookie: `^${lockedVersion('cookie')}`, jose: `^${lockedVersion('jose')}` },
      },
      null,
      2,
    ) + '\n',
  );
  cpSync(join(root, 'sdk/README.md'), join(sdkDir, 'README.md'));

  // gatehouse-react: hooks + components; the SDK package, React and React DOM stay imports.
  await build({
    ...esbuildBase,
    platform: 'browser',
    entryPoints: { index: join(root, 'ui/react.ts') },
    outdir: join(reactDir, 'dist'),
    plugins: [sdkAsPackage],
  });
  const reactDecls = [...declOf('ui'), join(declDir, 'sdk', 'react.d.ts')];
  copyDeclarations(declDir, reactDecls, join(reactDir, 'types'), (absolute) => {
    const source = ['.ts', '.tsx'].map((ext) => absolute.replace(/\.tsx?$/, ext)).find((p) => existsSync(p)) ?? absolute;
    return inSdkPackage(source) ? PACKAGE_NAMES.sdk : undefined;
  });
  // The ambient declaration of the `qrcode` core the QR component imports (no @types for it).
  cpSync(join(root, 'ui/components/qrcode-core.d.ts'), join(reactDir, 'types/ui/components/qrcode-core.d.ts'));
  writeFileSync(
    join(reactDir, 'package.json'),
    JSON.stringify(
      {
        name: PACKAGE_NAMES.react,
        version,
        description: 'React hooks and components (sign-in, sign-up, account settings, user button…) for Gatehouse.',
        license: pkg.license,
        type: 'module',
        sideEffects: false,
        exports: {
          '.': { types: './types/ui/react.d.ts', default: './dist/index.js' },
          './package.json': './package.json',
        },
        types: './types/ui/react.d.ts',
        files: ['dist', 'types', 'README.md'],
        dependencies: { [PACKAGE_NAMES.sdk]: version, qrcode: `^${lockedVersion('qrcode')}` },
        peerDependencies: { react: '^19.0.0', 'react-dom': '^19.0.0' },
      },
      null,
      2,
    ) + '\n',
  );
  writeFileSync(
    join(reactDir, 'README.md'),
    `# ${PACKAGE_NAMES.react}\n\nReact hooks and components for Gatehouse. Install with \`${PACKAGE_NAMES.sdk}\`, \`react\` and \`react-dom\`:\n\n\`\`\`tsx\nimport { ClientApp } from '${PACKAGE_NAMES.sdk}';\nimport { GatehouseProvider, SignIn, UserButton, useUser } from '${PACKAGE_NAMES.react}';\n\nconst app = new ClientApp({ projectId: '…', publishableClientKey: 'pck_…', baseUrl: 'https://auth.example.com' });\n// <GatehouseProvider app={app}><Suspense fallback={null}><UserButton /></Suspense></GatehouseProvider>\n\`\`\`\n\nThe hooks and components are described in the SDK's README.\n`,
  );
  rmSync(declDir, { recursive: true, force: true });
  return { sdk: sdkDir, react: reactDir };
}

/** What buildPackages reads: the entries and every source they reach, the versions it pins, itself. */
const PACKAGE_INPUTS = ['sdk', 'ui', 'core', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build-packages.mjs'];

/**
 * The packages as buildPackages builds them, copied into `outDir` (emptied first); returns their
 * folders there. Built once per change of their inputs (scripts/build-once.mjs) into
 * node_modules/.cache/gatehouse-packages, one process at a time (test files run in parallel, and
 * the build writes a shared declarations folder), so the test files that need the packages
 * (test/packages/publish.test.ts, scripts/check-packages.mjs) build them once between them.
 */
export async function copyBuiltPackages(outDir) {
  const cache = join(root, 'node_modules', '.cache', 'gatehouse-packages');
  const stamp = `${cache}.inputs`;
  const inputs = hashInputs(root, PACKAGE_INPUTS, [process.version]);
  return withLock(`${cache}.lock`, async () => {
    if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== inputs) {
      rmSync(stamp, { force: true });
      await buildPackages(cache);
      writeFileSync(stamp, inputs);
    }
    rmSync(outDir, { recursive: true, force: true });
    cpSync(cache, outDir, { recursive: true });
    return { sdk: join(outDir, PACKAGE_NAMES.sdk), react: join(outDir, PACKAGE_NAMES.react) };
  });
}

/**
 * Packs built package folders (`{ key: folder }`, as buildPackages returns) with `npm pack` into
 * `destination` (default: each folder's parent). Returns, per key, the tarball's path, its size
 * and unpacked size in bytes and the paths it holds.
 */
export function packPackages(dirs, destination) {
  const packed = {};
  for (const [key, dir] of Object.entries(dirs)) {
    const dest = destination ?? dirname(dir);
    mkdirSync(dest, { recursive: true });
    const r = spawnSync('npm', ['pack', dir, '--pack-destination', dest, '--json'], { cwd: dest, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm pack ${dir} failed:\n${r.stdout}${r.stderr}`);
    const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
    packed[key] = {
      file: join(dest, info.filename),
      size: info.size,
      unpackedSize: info.unpackedSize,
      files: info.files.map((f) => f.path),
    };
  }
  return packed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dirs = await buildPackages(process.argv[2] ? resolve(process.argv[2]) : undefined);
  const packed = packPackages(dirs);
  console.error(`built ${dirs.sdk} and ${dirs.react}`);
  const tgz = Object.values(packed).map((p) => p.file);
  console.error(`packed ${tgz.join(' and ')}\ninstall both in one command: npm i ${tgz.join(' ')}`);
}
