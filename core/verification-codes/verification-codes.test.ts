import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { createSystemContext } from '../operations/execute.ts';
import { KnownError } from '../errors/index.ts';
import {
  checkVerificationCode,
  createVerificationCode,
  listVerificationCodes,
  revokeVerificationCode,
  splitOtp,
  useVerificationCode,
  findVerificationCode,
  MAX_ATTEMPTS_PER_CODE,
} from './index.ts';

async function codeError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof KnownError) return error.code;
    throw error;
  }
  return 'NO_ERROR';
}

describeWithCore('verification codes', (get) => {
  const ctx = () => createSystemContext(get().core.runtime);

  it('creates a 45-character lowercase Crockford code stored only as hashes and uses it once', async () => {
    const t = get();
    const { projectId } = await createCoreProject(t);
    const { code, id, expiresAt } = await createVerificationCode(ctx(), {
      projectId,
      purpose: 'test',
      data: { a: 1 },
      email: 'x@example.com',
      subjectId: 's1',
    });
    assert.match(code, /^[0-9a-hjkmnp-tv-z]{45}$/);
    assert.equal(expiresAt, t.clock.now() + 7 * 24 * 3600 * 1000);
    const rows = await t.core.runtime.db.selectFrom('verification_codes').selectAll().where('id', '=', id).execute();
    assert.equal(rows.length, 1);
    assert.ok(!JSON.stringify(rows).includes(code), 'the plain code is not stored');

    const checked = await checkVerificationCode<{ a: number }>(ctx(), projectId, 'test', code.toUpperCase());
    assert.deepEqual(checked.data, { a: 1 });
    assert.equal(checked.usedAt, null);
    const result = await useVerificationCode<{ a: number }, string>(
      ctx(),
      projectId,
      'test',
      code,
      async (_trx, c) => `applied ${c.data.a}`,
    );
    assert.equal(result, 'applied 1');
    assert.equal(await codeError(useVerificationCode(ctx(), projectId, 'test', code, async () => 1)), 'VERIFICATION_CODE_ALREADY_USED');
    assert.equal(await codeError(checkVerificationCode(ctx(), projectId, 'test', code)), 'VERIFICATION_CODE_ALREADY_USED');
  });

  it('answers not found for another purpose, another project or an unknown code', async () => {
    const t = get();
    const { projectId } = await createCoreProject(t);
    const other = await createCoreProject(t);
    const { code } = await createVerificationCode(ctx(), { projectId, purpose: 'test', data: {} });
    assert.equal(await codeError(checkVerificationCode(ctx(), projectId, 'other', code)), 'VERIFICATION_CODE_NOT_FOUND');
    assert.equal(await codeError(checkVerificationCode(ctx(), other.projectId, 'test', code)), 'VERIFICATION_CODE_NOT_FOUND');
    assert.equal(await codeError(checkVerificationCode(ctx(), projectId, 'test', 'nope')), 'VERIFICATION_CODE_NOT_FOUND');
  });

  it('expires codes by the injected clock', async () => {
    const t = get();
    const { projectId } = await createCoreProject(t);
    const { code } = await createVerificationCode(ctx(), { projectId, purpose: 'test', data: {}, expiresInMs: 1000 });
    t.clock.advance(1000);
    assert.equal(await codeError(checkVerificationCode(ctx(), projectId, 'test', code)), 'VERIFICATION_CODE_EXPIRED');
  });

  it('counts attempts across codes sharing the nonce and stops at the maximum', async () => {
    const t = get();
    const { projectId } = await createCoreProject(t);
    const { code } = await createVerificationCode(ctx(), { projectId, purpose: 'test', data: {} });
    const { otp, nonce } = splitOtp(code);
    assert.equal(otp.length, 6);
    assert.equal(nonce.length, 39);
    const wrong = (otp === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA') + nonce;
    for (let i = 0; i < MAX_ATTEMPTS_PER_CODE; i++) {
      assert.equal(await codeError(checkVerificationCode(ctx(), projectId, 'test', wrong)), 'VERIFICATION_CODE_NOT_FOUND');
    }
    assert.equal(await codeError(checkVerificationCode(ctx(), projectId, 'test', otp + nonce)), 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
  });

  it('keeps the code unused when apply fails', async () => {
    const t = get();
    const { projectId } = await createCoreProject(t);
    const { code } = await createVerificationCode(ctx(), { projectId, purpose: 'test', data: {} });
    assert.equal(
      await codeError(
        useVerificationCode(ctx(), projectId, 'test', code, async () => {
          throw new KnownError('USER_NOT_FOUND');
        }),
      ),
      'USER_NOT_FOUND',
    );
    assert.equal(await useVerificationCode(ctx(), projectId, 'test', code, async () => 'ok'), 'ok');
  });

  it('lists active codes by subject and revokes them', async () => {
    const t = get();
    const { projectId } = await createCoreProject(t);
    const a = await createVerificationCode(ctx(), { projectId, purpose: 'invite', data: { n: 1 }, subjectId: 'team-a' });
    await createVerificationCode(ctx(), { projectId, purpose: 'invite', data: { n: 2 }, subjectId: 'team-b' });
    const listed = await listVerificationCodes(ctx(), projectId, 'invite', { subjectId: 'team-a' });
    assert.deepEqual(
      listed.map((c) => c.id),
      [a.id],
    );
    assert.equal((await findVerificationCode(ctx(), projectId, 'invite', a.id))?.subjectId, 'team-a');
    assert.equal(await revokeVerificationCode(ctx(), projectId, 'invite', a.id), true);
    assert.equal(await revokeVerificationCode(ctx(), projectId, 'invite', a.id), false);
    assert.equal(await codeError(checkVerificationCode(ctx(), projectId, 'invite', a.code)), 'VERIFICATION_CODE_NOT_FOUND');
  });
});
