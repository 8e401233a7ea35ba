/**
 * Booleans at the storage seam. Both dialects store a flag as a 0/1 `integer` column
 * (core/storage/tables/, type `Bool`); above the adapters a flag is a JavaScript boolean. Each
 * adapter runs every statement's bound parameters through {@link toDriverParameters} (a bound
 * `true`/`false` becomes 1/0: better-sqlite3 refuses booleans, and PostgreSQL would refuse
 * `'true'` for an integer column) and every returned row through {@link fromDriverRows} (a flag
 * column's 0/1 becomes `false`/`true`).
 *
 * Why at the driver and not in a Kysely plugin: precompiled queries (core/storage/precompiled.ts)
 * bypass query-rewriting plugins, and raw `sql` statements reach the driver too; converting where
 * the values meet the driver covers every statement the same way, at the cost of one `Set` look-up
 * per returned column.
 *
 * Flags are recognised by column name: every column typed `Bool` in core/storage/tables/, and no
 * other column of the schema has one of these names (test/architecture/storage-seam.test.ts checks
 * both). Aliases in `select … as <name>` follow the same rule, so a query must not alias a
 * non-flag value to a flag's name.
 */

/** The names of the flag columns (0/1 in the database, booleans above the adapters). */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set([
  'is_production_mode',
  'is_development_environment',
  'primary_email_verified',
  'primary_email_auth_enabled',
  'otp_auth_enabled',
  'passkey_auth_enabled',
  'is_anonymous',
  'restricted_by_admin',
  'is_impersonation',
  'is_verified',
  'used_for_auth',
  'enabled',
  'is_public',
  'is_new_user',
  'allow_sign_in',
  'allow_connected_accounts',
  'is_valid',
  'backed_up',
  'test_mode',
  'cancel_at_period_end',
  'is_creation_invoice',
  'sso_enforced',
  'scim_active',
  'created_by_scim',
  'allow_idp_initiated',
]);

/**
 * The parameters to bind, with each boolean as 1 or 0; the same array when it holds no boolean.
 */
export function toDriverParameters<T extends readonly unknown[]>(parameters: T): T {
  if (!parameters.some((p) => typeof p === 'boolean')) return parameters;
  return parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p)) as unknown as T;
}

/**
 * Converts, in place, each flag column of `rows` from 0/1 (a number, a bigint, or PostgreSQL's
 * text of one) to a boolean; null and other values stay as they are.
 *
 * @returns `rows` itself.
 */
export function fromDriverRows<R>(rows: R[]): R[] {
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue;
    const record = row as Record<string, unknown>;
    for (const key in record) {
      if (!BOOLEAN_COLUMNS.has(key)) continue;
      const value = record[key];
      if (value === 1 || value === 1n || value === '1') record[key] = true;
      else if (value === 0 || value === 0n || value === '0') record[key] = false;
    }
  }
  return rows;
}
