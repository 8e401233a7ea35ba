import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

/**
 * Clerk's user export (Dashboard → Settings → "Export users", a CSV with a header row: `id`,
 * `first_name`, `last_name`, `username`, `primary_email_address`, `verified_email_addresses`,
 * `unverified_email_addresses`, `totp_secret`, `password_digest`, `password_hasher`, and the
 * metadata columns when present) as import records, streamed row by row.
 *
 * `password_digest` is imported as it is when `password_hasher` is one Gatehouse verifies in that
 * layout (`bcrypt`, `argon2i`, `argon2id`, `pbkdf2_sha256_django`); other hashers are kept too and
 * reported per line by the server as UNSUPPORTED_PASSWORD_HASH. The primary address is verified
 * when it is among the verified addresses. `public_metadata` → client_read_only_metadata,
 * `unsafe_metadata` → client_metadata, `private_metadata` → server_metadata.
 */
export async function* clerkRecords(file: string): AsyncGenerator<Record<string, unknown>> {
  const rows = createReadStream(file).pipe(parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true }));
  for await (const row of rows as AsyncIterable<Record<string, string | undefined>>) {
    const email = row.primary_email_address?.trim() || null;
    const verified = (row.verified_email_addresses ?? '')
      .split(/[|,;\s]+/)
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean);
    const name = [row.first_name, row.last_name]
      .map((s) => s?.trim())
      .filter(Boolean)
      .join(' ');
    const metadata = (column: string) => {
      const text = row[column]?.trim();
      if (!text) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    };
    const record: Record<string, unknown> = {
      source_id: row.id,
      ...(email ? { primary_email: email, primary_email_verified: verified.includes(email.toLowerCase()) } : {}),
      ...(name ? { display_name: name } : row.username ? { display_name: row.username } : {}),
      ...(row.password_digest ? { password_hash: row.password_digest } : {}),
      ...(row.totp_secret ? { totp_secret_base64: base32ToBase64(row.totp_secret) } : {}),
    };
    for (const [column, field] of [
      ['public_metadata', 'client_read_only_metadata'],
      ['unsafe_metadata', 'client_metadata'],
      ['private_metadata', 'server_metadata'],
    ] as const) {
      const value = metadata(column);
      if (value && typeof value === 'object' && !Array.isArray(value)) record[field] = value;
    }
    yield record;
  }
}

/** A TOTP secret as authenticator apps show it (RFC 4648 base32) in the base64 Gatehouse stores. */
export function base32ToBase64(base32: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of base32.toUpperCase().replace(/[=\s]/g, '')) {
    const index = alphabet.indexOf(char);
    if (index < 0) return base32; // not base32: the server reports the record
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes).toString('base64');
}
