import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { scaffold } from './init-scaffold.ts';

describe('gatehouse init scaffolding', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-scaffold-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('writes a Next.js app under src/ when it has src/app, keeps existing files and imports the lib relatively', async () => {
    const dir = join(root, 'next-src');
    mkdirSync(join(dir, 'src/app/account'), { recursive: true });
    writeFileSync(join(dir, 'src/app/account/page.jsx'), 'mine');
    const result = await scaffold(dir, 'next');
    assert.deepEqual(result.kept, ['src/app/account/page.jsx']);
    assert.ok(result.written.includes('src/lib/gatehouse.js'));
    assert.equal(readFileSync(join(dir, 'src/app/account/page.jsx'), 'utf8'), 'mine');
    assert.match(readFileSync(join(dir, 'src/app/auth/[...gatehouse]/route.js'), 'utf8'), /from '\.\.\/\.\.\/\.\.\/lib\/gatehouse\.js'/);
    assert.deepEqual(result.manual, []);
  });

  it('in a Vite app, prints the edits it cannot make safely, and a second run changes nothing', async () => {
    const dir = join(root, 'vite-odd');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
    writeFileSync(join(dir, 'vite.config.js'), 'export default { }\n');
    writeFileSync(join(dir, 'src/main.jsx'), "import App from './App.jsx';\nrender(<Root />);\n");
    const first = await scaffold(dir, 'vite');
    assert.equal(first.manual.length, 2, first.manual.join('\n'));
    assert.equal(readFileSync(join(dir, 'vite.config.js'), 'utf8'), 'export default { }\n');
    assert.match(readFileSync(join(dir, '.gitignore'), 'utf8'), /^\.gatehouse$/m);
    const second = await scaffold(dir, 'vite');
    assert.deepEqual(second.written, []);
    assert.equal(readFileSync(join(dir, '.gitignore'), 'utf8').match(/\.gatehouse/g)!.length, 1);
  });
});
