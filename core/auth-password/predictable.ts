/**
 * Keyboard rows (US QWERTY, and the digit row), for "sequential" in the keyboard sense:
 * `qwertyui`, `asdfghjk`, `zxcvbnm,` are as predictable as `abcdefgh`.
 */
const KEYBOARD_ROWS = ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./'];

const neighbours = new Map<string, Set<string>>();
for (const row of KEYBOARD_ROWS) {
  for (let i = 0; i < row.length; i++) {
    const set = neighbours.get(row[i]!) ?? new Set<string>();
    if (i > 0) set.add(row[i - 1]!);
    if (i < row.length - 1) set.add(row[i + 1]!);
    neighbours.set(row[i]!, set);
  }
}

/** Two characters in a predictable succession: the same, adjacent code points, or keyboard neighbours. */
function predictablePair(a: string, b: string): boolean {
  const d = b.codePointAt(0)! - a.codePointAt(0)!;
  return (d >= -1 && d <= 1) || (neighbours.get(a)?.has(b) ?? false);
}

/** The longest unit a repetition is made of that still counts as repetitive (`abcabcab`, `p@ssp@ss`). */
const MAX_REPEATED_UNIT = 4;
/** A password made of this many predictable runs or fewer is refused (`1234abcd` is two). */
const MAX_PREDICTABLE_RUNS = 2;

/**
 * True when a password is repetitive or sequential, the two classes NIST SP 800-63B-4 §3.1.1.2
 * names for its blocklist beside breached and dictionary passwords ("repetitive or sequential
 * characters (e.g. 'aaaaaa', '1234abcd')"): compared lowercased, it is a unit of at most 4
 * characters repeated (`aaaaaaaa`, `abababab`, `123123123`), or it splits into at most 2 runs in
 * which each character follows the previous one predictably (the same character, the next or
 * previous code point, or a keyboard neighbour on its row: `12345678`, `abcdefgh`, `87654321`,
 * `qwertyui`, `1234abcd`, `aaaabbbb`). Pure, no imports: core/auth-password/rules.ts applies it
 * on every new password.
 */
export function isPredictablePassword(password: string): boolean {
  const chars = [...password.toLowerCase()];
  if (chars.length === 0) return false;
  for (let unit = 1; unit <= MAX_REPEATED_UNIT && unit * 2 <= chars.length; unit++) {
    if (chars.every((c, i) => c === chars[i % unit])) return true;
  }
  let runs = 1;
  for (let i = 1; i < chars.length; i++) {
    if (!predictablePair(chars[i - 1]!, chars[i]!) && ++runs > MAX_PREDICTABLE_RUNS) return false;
  }
  return true;
}
