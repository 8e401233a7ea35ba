import * as v from 'valibot';

/** One object (not a variant) so every unknown field is named; the factor's field is required by type. */
export const MfaSignInBodySchema = v.pipe(
  v.strictObject({
    type: v.picklist(['totp', 'recovery_code']),
    totp: v.optional(v.string()),
    recovery_code: v.optional(v.string()),
    code: v.string(),
  }),
  v.forward(
    v.partialCheck([['type'], ['totp']], (b) => b.type !== 'totp' || b.totp !== undefined, 'must be defined when type is "totp"'),
    ['totp'],
  ),
  v.forward(
    v.partialCheck(
      [['type'], ['recovery_code']],
      (b) => b.type !== 'recovery_code' || b.recovery_code !== undefined,
      'must be defined when type is "recovery_code"',
    ),
    ['recovery_code'],
  ),
);
