#!/usr/bin/env node
// Installs the packed SDK and React packages into a scratch React app the way a developer would,
// and checks what they get:
//   1. scripts/build-packages.mjs (built once per change of its inputs: copyBuiltPackages), then
//      `npm pack` each package into a tarball;
//   2. a scratch app (examples/react-app/main.tsx) runs `npm install <tarballs> react react-dom
//      @types/react @types/react-dom` (versions of this repository's lock file, so the npm cache
//      answers; the npm registry is the only network it may use);
//   3. its node_modules hold one React and none of the server's dependencies;
//   4. `tsc --strict` type-checks it (no skipLibCheck: the packages' .d.ts are checked too), and a
//      Node server file of the app as Node resolves packages (NodeNext, the full SDK);
//   5. plain esbuild bundles it (no alias), and the bundle holds one React.
// Signing a user in with the bundle is test/packages/packages.test.ts (Chromium, a live Gatehouse).
// `node scripts/check-packages.mjs` prints a summary; checkPackages() is what the test calls.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAMES, SERVER_DEPENDENCIES, copyBuiltPackages, packPackages } from './build-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lock = () => JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const locked = (name) => lock().packages[`node_modules/${name}`].version;

function run(command, args, cwd) {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}) in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Every installed package (name → folders) under `dir/node_modules`, nested ones included. */
export function installedPackages(dir) {
  const found = new Map();
  const visit = (nodeModules) => {
    if (!existsSync(nodeModules)) return;
    for (const entry of readdirSync(nodeModules)) {
      if (entry.startsWith('.')) continue;
      const folders = entry.startsWith('@')
        ? readdirSync(join(nodeModules, entry)).map((e) => join(nodeModules, entry, e))
        : [join(nodeModules, entry)];
      for (const folder of folders) {
        const manifest = join(folder, 'package.json');
        if (!existsSync(manifest)) continue;
        const { name } = JSON.parse(readFileSync(manifest, 'utf8'));
        found.set(name, [...(found.get(name) ?? []), folder]);
        visit(join(folder, 'node_modules'));
      }
    }
  };
  visit(join(dir, 'node_modules'));
  return found;
}

const folderSize = (p) => (statSync(p).isDirectory() ? readdirSync(p).reduce((n, e) => n + folderSize(join(p, e)), 0) : statSync(p).size);

/**
 * Runs steps 1–5 in `workDir` (default: a new temporary folder). Throws on the first failed
 * check; returns the app folder, the bundle's path and figures for the report.
 */
export async function checkPackages(workDir = mkdtempSync(join(tmpdir(), 'gatehouse-packages-'))) {
  const packages = await copyBuiltPackages(join(workDir, 'packages'));
  const packed = packPackages(packages, join(workDir, 'tarballs'));
  for (const [key, info] of Object.entries(packed)) {
    const stray = info.files.filter((p) => /\.tsx?$/.test(p) && !p.endsWith('.d.ts'));
    if (stray.length) throw new Error(`${PACKAGE_NAMES[key]} ships TypeScript sources: ${stray.join(', ')}`);
  }

  const app = join(workDir, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch-react-app', private: true, type: 'module' }, null, 2));
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      packed.sdk.file,
      packed.react.file,
      `react@${locked('react')}`,
      `react-dom@${locked('react-dom')}`,
      `@types/react@${locked('@types/react')}`,
      `@types/react-dom@${locked('@types/react-dom')}`,
      `@types/node@${locked('@types/node')}`,
    ],
    app,
  );

  const installed = installedPackages(app);
  const reacts = installed.get('react') ?? [];
  if (reacts.length !== 1) throw new Error(`expected one React in node_modules, found ${reacts.length}: ${reacts.join(', ')}`);
  const server = SERVER_DEPENDENCIES.filter((name) => installed.has(name));
  if (server.length) throw new Error(`server dependencies installed into a browser app: ${server.join(', ')}`);
  for (const name of Object.values(PACKAGE_NAMES).slice(0, 2)) {
    if (!installed.has(name)) throw new Error(`${name} is not installed`);
  }

  // The example app's source, as an app would write it: imports by package name only.
  copyFileSync(join(root, 'examples/react-app/main.tsx'), join(app, 'src/main.tsx'));
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'bundler',
          strict: true,
          jsx: 'react-jsx',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          noEmit: true,
          isolatedModules: true,
          types: ['react', 'react-dom'],
        }, // no Node types in a browser app
        include: ['src'],
      },
      null,
      2,
    ),
  );
  run(join(root, 'node_modules/.bin/tsc'), ['-p', join(app, 'tsconfig.json')], app);
  // The app's Node server, type-checked as Node resolves packages (the `node` condition: the
  // full SDK with ServerApp and the in-process transport).
  mkdirSync(join(app, 'server'), { recursive: true });
  writeFileSync(
    join(app, 'server/main.ts'),
    [
      "import { ServerApp, inProcessTransport, GatehouseKnownError, type Transport } from 'gatehouse-sdk';",
      "const server = new ServerApp({ projectId: 'internal', secretServerKey: process.env.STACK_SECRET_SERVER_KEY ?? '', baseUrl: 'http://localhost:8102', tokenStore: null });",
      'export async function who(headers: Record<string, string>): Promise<string | null> {',
      '  try { return (await server.getUserFromTokens({ headers }))?.primaryEmail ?? null; } catch (e) { if (e instanceof GatehouseKnownError) return e.code; throw e; }',
      '}',
      "export const local: Transport = inProcessTransport({ dispatch: async () => ({ status: 200, headers: {}, text: '{}' }), mountPath: '/auth' });",
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(app, 'tsconfig.server.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          types: ['node'],
          noEmit: true,
        },
        include: ['server'],
      },
      null,
      2,
    ),
  );
  run(join(root, 'node_modules/.bin/tsc'), ['-p', join(app, 'tsconfig.server.json')], app);

  const outfile = join(app, 'dist/app.js');
  const result = await build({
    absWorkingDir: app,
    entryPoints: ['src/main.tsx'],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    outfile,
    metafile: true,
    logLevel: 'warning',
  });
  const reactCopies = new Set(
    Object.keys(result.metafile.inputs)
      .filter((p) => /node_modules\/react\//.test(p))
      .map((p) => p.slice(0, p.indexOf('node_modules/react/') + 'node_modules/react/'.length)),
  );
  if (reactCopies.size !== 1) throw new Error(`the bundle holds ${reactCopies.size} copies of React: ${[...reactCopies].join(', ')}`);
  const sdkCopies = Object.keys(result.metafile.inputs).filter((p) => p.includes(`${PACKAGE_NAMES.sdk}/dist/`));
  if (sdkCopies.length !== 1) throw new Error(`the bundle holds ${sdkCopies.length} SDK entries: ${sdkCopies.join(', ')}`);

  return {
    workDir,
    app,
    outfile,
    tarballs: packed,
    nodeModulesBytes: folderSize(join(app, 'node_modules')),
    bundleBytes: statSync(outfile).size,
    packages: [...installed.keys()].sort(),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await checkPackages(process.argv[2]);
  for (const [key, t] of Object.entries(r.tarballs))
    console.log(`${relative(r.workDir, t.file)}: ${t.size} bytes packed, ${t.unpackedSize} unpacked, ${t.files.length} files (${key})`);
  console.log(`scratch app ${r.app}: node_modules ${(r.nodeModulesBytes / 1e6).toFixed(1)} MB, packages: ${r.packages.join(', ')}`);
  console.log(`bundle ${r.outfile}: ${r.bundleBytes} bytes; one React, no server dependency, tsc --strict clean`);
}
