import { observingPlugin } from '../storage/observing-plugins.ts';
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * A Kysely plugin that calls `onWrite` for every query that writes one of `tables` (an INSERT,
 * UPDATE, DELETE or MERGE whose target is one of them, also inside a WITH, or raw `sql` text that
 * names one of them next to a write verb), before the query runs; it changes neither the query
 * nor its result. The runtime installs it on its database, so transactions inherit it and no
 * operation has to remember to invalidate the request cache (core/auth/request-cache.ts).
 *
 * It is an observing plugin (core/storage/observing-plugins.ts), so precompiled queries keep
 * their compiled SQL on the runtime's database and still pass their query node through it. Over-counting (a raw SELECT
 * whose text says "update projects") only costs a cache clear.
 */
export function watchCachedTableWrites(tables: ReadonlySet<string>, onWrite: () => void): KyselyPlugin {
  return observingPlugin({
    transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
      if (writesTable(node, tables)) onWrite();
      return node;
    },
    transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return Promise.resolve(result);
    },
  });
}

const WRITE_VERB = /\b(insert|update|delete|merge|replace|upsert)\b/i;

/** Loose shape of the few node fields read here (Kysely's node types, all optional). */
interface AnyNode extends OperationNode {
  readonly into?: OperationNode;
  readonly table?: OperationNode | { identifier?: { name?: string } };
  readonly from?: OperationNode;
  readonly froms?: readonly OperationNode[];
  readonly node?: OperationNode;
  readonly items?: readonly OperationNode[];
  readonly with?: { expressions: ReadonlyArray<{ expression: OperationNode }> };
  readonly sqlFragments?: readonly string[];
  readonly parameters?: readonly OperationNode[];
  readonly name?: string;
}

function writesTable(root: OperationNode, tables: ReadonlySet<string>): boolean {
  const node = root as AnyNode;
  switch (node.kind) {
    case 'SelectQueryNode':
      return writesInWith(node, tables);
    case 'InsertQueryNode':
    case 'MergeQueryNode':
      return namesTable(node.into, tables) || writesInWith(node, tables);
    case 'UpdateQueryNode':
      return namesTable(node.table as OperationNode | undefined, tables) || writesInWith(node, tables);
    case 'DeleteQueryNode':
      return namesTable(node.from, tables) || writesInWith(node, tables);
    case 'RawNode':
      return rawWritesTable(node, tables);
    default:
      return false;
  }
}

/** A data-modifying WITH (PostgreSQL): `with x as (update projects …) select …`. */
function writesInWith(node: AnyNode, tables: ReadonlySet<string>): boolean {
  return node.with?.expressions.some((cte) => writesTable(cte.expression, tables)) ?? false;
}

/** Whether a write target (a table, an aliased table, a FROM list, a list of tables) names one of `tables`. */
function namesTable(target: OperationNode | undefined, tables: ReadonlySet<string>): boolean {
  if (!target) return false;
  const node = target as AnyNode;
  switch (node.kind) {
    case 'TableNode':
      return tables.has((node.table as { identifier: { name: string } }).identifier.name);
    case 'AliasNode':
      return namesTable(node.node, tables);
    case 'FromNode':
      return node.froms?.some((t) => namesTable(t, tables)) ?? false;
    case 'ListNode':
      return node.items?.some((t) => namesTable(t, tables)) ?? false;
    default:
      return false;
  }
}

/** Raw SQL: a write verb anywhere in its text, and a cached table named in its text or as `sql.table(…)`. */
function rawWritesTable(node: AnyNode, tables: ReadonlySet<string>): boolean {
  const text: string[] = [];
  let namesCached = false;
  const visit = (n: AnyNode): void => {
    if (n.kind === 'RawNode') {
      text.push(...(n.sqlFragments ?? []));
      for (const p of n.parameters ?? []) visit(p as AnyNode);
    } else if (namesTable(n, tables)) {
      namesCached = true;
    }
  };
  visit(node);
  const joined = text.join(' ');
  if (!WRITE_VERB.test(joined)) return false;
  return namesCached || [...tables].some((t) => new RegExp(`\\b${t}\\b`, 'i').test(joined));
}
