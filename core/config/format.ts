import * as v from 'valibot';
import { CONFIG_SCHEMA, type ConfigLevel, type ConfigNode } from './schema.ts';

/**
 * Config overrides in Stack's format (upstream `https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/config/format.ts` and
 * `config/README.md`): a JSON object whose keys may be dotted paths (`"auth.password.allowSignIn"`).
 * Applying an override sets each key's path to its value, replacing what was there (an object
 * value replaces the whole subtree; use dotted keys to change one leaf); `null` removes the path,
 * so lower levels and defaults show through.
 */
export type ConfigOverride = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function splitKey(key: string): string[] {
  return key.split('.');
}

/** Expands dotted keys inside a value (`{ "a.b": 1 }` → `{ a: { b: 1 } }`), recursively. */
function expandValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expandValue);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, child] of Object.entries(value)) setPath(out, splitKey(k), expandValue(child));
  return out;
}

function setPath(target: Record<string, unknown>, segs: string[], value: unknown): void {
  let node = target;
  for (const seg of segs.slice(0, -1)) {
    if (!isPlainObject(node[seg])) node[seg] = {};
    node = node[seg] as Record<string, unknown>;
  }
  node[segs[segs.length - 1]!] = value;
}

function deletePath(target: Record<string, unknown>, segs: string[]): void {
  let node: unknown = target;
  for (const seg of segs.slice(0, -1)) {
    if (!isPlainObject(node)) return;
    node = node[seg];
  }
  if (isPlainObject(node)) delete node[segs[segs.length - 1]!];
}

/** Drops `null` members of objects (inside a value `null` just means absent). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, child] of Object.entries(value)) if (child !== null) out[k] = withoutNulls(child);
  return out;
}

function isPrefix(prefix: string[], segs: string[]): boolean {
  return prefix.length < segs.length && prefix.every((s, i) => segs[i] === s);
}

/**
 * Applies a partial override (PATCH) to a stored override: a key inside a stored object value
 * edits that object; otherwise the key replaces itself and every stored key below it.
 */
export function applyOverridePatch(stored: ConfigOverride, patch: ConfigOverride): ConfigOverride {
  const result: ConfigOverride = structuredClone(stored);
  for (const [key, value] of Object.entries(patch)) {
    const segs = splitKey(key);
    const ancestor = Object.keys(result).find((k) => isPrefix(splitKey(k), segs) && isPlainObject(result[k]));
    if (ancestor !== undefined) {
      const inner = segs.slice(splitKey(ancestor).length);
      const holder = result[ancestor] as Record<string, unknown>;
      if (value === null) deletePath(holder, inner);
      else setPath(holder, inner, withoutNulls(expandValue(value)));
      continue;
    }
    for (const k of Object.keys(result)) if (k === key || k.startsWith(`${key}.`)) delete result[k];
    result[key] = value === null ? null : expandValue(value);
  }
  return result;
}

/**
 * Removes keys and everything below them from a stored override (upstream `reset-keys`): stored
 * keys equal to or under a reset key go, and a reset key inside a stored object value is removed
 * from that object.
 */
export function resetOverrideKeys(stored: ConfigOverride, keys: readonly string[]): ConfigOverride {
  const result: ConfigOverride = structuredClone(stored);
  for (const key of keys) {
    const segs = splitKey(key);
    for (const k of Object.keys(result)) {
      if (k === key || k.startsWith(`${key}.`)) delete result[k];
      else if (isPrefix(splitKey(k), segs) && isPlainObject(result[k]))
        deletePath(result[k] as Record<string, unknown>, segs.slice(splitKey(k).length));
    }
  }
  return result;
}

/** Merges override layers in order (lowest first) into one nested object, before defaults. */
export function mergeOverrides(layers: readonly ConfigOverride[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value === null) deletePath(out, splitKey(key));
      else setPath(out, splitKey(key), withoutNulls(structuredClone(expandValue(value))));
    }
  }
  return out;
}

/** Fills defaults under `node` and drops anything the schema does not know (upstream's rendered config). */
function render(node: ConfigNode, value: unknown): unknown {
  if (node.kind === 'leaf') return value === undefined ? structuredClone(node.default) : value;
  if (node.kind === 'record') {
    const out: Record<string, unknown> = {};
    if (isPlainObject(value)) for (const [k, child] of Object.entries(value)) out[k] = render(node.value, child);
    return out;
  }
  const out: Record<string, unknown> = {};
  const src = isPlainObject(value) ? value : {};
  for (const [k, child] of Object.entries(node.fields)) {
    const rendered = render(child, src[k]);
    if (rendered !== undefined) out[k] = rendered;
  }
  return out;
}

/** The rendered config: override layers merged in order onto the schema's defaults. */
export function renderConfig(layers: readonly ConfigOverride[]): RenderedConfig {
  return render(CONFIG_SCHEMA, mergeOverrides(layers)) as RenderedConfig;
}

/** A rendered config (every schema key present with its value or default). */
export type RenderedConfig = Record<string, any>;

/** Where each rendered leaf came from: `default` or the level whose override set it. */
export function configOrigins(
  layers: ReadonlyArray<{ level: ConfigLevel; override: ConfigOverride }>,
): Record<string, ConfigLevel | 'default'> {
  const origins: Record<string, ConfigLevel | 'default'> = {};
  const walk = (value: unknown, path: string, origin: ConfigLevel | 'default') => {
    if (isPlainObject(value) && Object.keys(value).length > 0)
      for (const [k, child] of Object.entries(value)) walk(child, path ? `${path}.${k}` : k, origin);
    else origins[path] = origin;
  };
  for (const { level, override } of layers) {
    const merged = mergeOverrides([override]);
    for (const [key, value] of Object.entries(override)) {
      if (value === null) continue;
      for (const p of Object.keys(origins)) if (p === key || p.startsWith(`${key}.`)) delete origins[p];
    }
    walk(merged, '', level);
  }
  return origins;
}

// ── Validation ────────────────────────────────────────────────────────────────────────────

/** Why an override is refused, naming the offending key. */
export class ConfigOverrideError extends Error {}

function allowedAt(node: ConfigNode, inherited: readonly ConfigLevel[]): readonly ConfigLevel[] {
  return node.levels ?? inherited;
}

function checkValue(node: ConfigNode, value: unknown, path: string, level: ConfigLevel, levels: readonly ConfigLevel[]): void {
  const allowed = allowedAt(node, levels);
  if (!allowed.includes(level)) {
    throw new ConfigOverrideError(`The key "${path}" cannot be set at the ${level} level (allowed at: ${allowed.join(', ')}).`);
  }
  if (value === null) return;
  if (node.kind === 'leaf') {
    const result = v.safeParse(node.schema, value);
    if (!result.success) throw new ConfigOverrideError(`The key "${path}" has an invalid value: ${result.issues[0]!.message}.`);
    return;
  }
  if (!isPlainObject(value)) throw new ConfigOverrideError(`The key "${path}" has an invalid value: must be an object.`);
  for (const [key, child] of Object.entries(value)) checkKey(node, splitKey(key), child, path, level, allowed);
}

function checkKey(
  root: ConfigNode,
  segs: string[],
  value: unknown,
  base: string,
  level: ConfigLevel,
  levels: readonly ConfigLevel[],
): void {
  let node = root;
  let allowed = levels;
  let path = base;
  for (const seg of segs) {
    path = path ? `${path}.${seg}` : seg;
    allowed = allowedAt(node, allowed);
    if (node.kind === 'object' && Object.hasOwn(node.fields, seg)) {
      node = node.fields[seg]!;
    } else if (node.kind === 'record') {
      if (!node.keyPattern.test(seg))
        throw new ConfigOverrideError(`The key "${path}" is not valid (the id "${seg}" must match ${node.keyPattern}).`);
      node = node.value;
    } else {
      throw new ConfigOverrideError(`The key "${path}" is not valid (nested object not found in schema: "${path}").`);
    }
  }
  checkValue(node, value, path, level, allowed);
}

/**
 * Checks an override (or a patch) for `level`: every key must exist in the schema, be settable at
 * that level, and carry a valid value (`null` removes a key and is always valid).
 *
 * @throws ConfigOverrideError with a message naming the offending key (upstream answers 400 text).
 */
export function validateOverride(override: unknown, level: ConfigLevel): asserts override is ConfigOverride {
  if (!isPlainObject(override)) throw new ConfigOverrideError('The config override must be a JSON object.');
  for (const [key, value] of Object.entries(override)) {
    if (key === '') throw new ConfigOverrideError('The key "" is not valid (empty key).');
    checkKey(CONFIG_SCHEMA, splitKey(key), value, '', level, ['project', 'branch', 'environment']);
  }
}

// ── Key migrations ────────────────────────────────────────────────────────────────────────

function renameKey(override: ConfigOverride, from: string, to: string): ConfigOverride {
  const out: ConfigOverride = {};
  for (const [key, value] of Object.entries(override)) {
    if (key === from || key.startsWith(`${from}.`)) out[to + key.slice(from.length)] = value;
    else if (isPrefix(splitKey(key), splitKey(from)) && isPlainObject(value)) {
      const inner = splitKey(from).slice(splitKey(key).length);
      const copy = structuredClone(value);
      let holder: Record<string, unknown> = copy;
      for (const seg of inner.slice(0, -1)) holder = isPlainObject(holder[seg]) ? (holder[seg] as Record<string, unknown>) : {};
      const last = inner[inner.length - 1]!;
      if (Object.hasOwn(holder, last)) {
        holder[splitKey(to)[splitKey(to).length - 1]!] = holder[last];
        delete holder[last];
      }
      out[key] = copy;
    } else out[key] = value;
  }
  return out;
}

/**
 * Upstream's migrations of renamed keys (`migrateConfigOverride`), applied to every override
 * written so old files and old SDKs keep working: `emails.theme` → `emails.selectedThemeId`,
 * `payments.offers` → `payments.products`, `payments.groups` → `payments.catalogs`, an array of
 * `domains.trustedDomains` becomes a record keyed by index, the removed `emails.themeList` /
 * `emails.templateList` are dropped, and `sourceOfTruth` is dropped outside the project level.
 */
export function migrateOverride(override: ConfigOverride, level: ConfigLevel): ConfigOverride {
  let out = override;
  if (level !== 'project') {
    out = renameKey(out, 'emails.theme', 'emails.selectedThemeId');
    out = renameKey(out, 'payments.offers', 'payments.products');
    out = renameKey(out, 'payments.groups', 'payments.catalogs');
    out = resetOverrideKeys(out, ['emails.themeList', 'emails.templateList', 'sourceOfTruth']);
    out = Object.fromEntries(
      Object.entries(out).map(([k, value]) => {
        if (k === 'domains.trustedDomains' && Array.isArray(value)) return [k, Object.fromEntries(value.map((d, i) => [String(i), d]))];
        if (k === 'domains' && isPlainObject(value) && Array.isArray(value.trustedDomains)) {
          return [k, { ...value, trustedDomains: Object.fromEntries(value.trustedDomains.map((d, i) => [String(i), d])) }];
        }
        return [k, value];
      }),
    );
  }
  return out;
}
