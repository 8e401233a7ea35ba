/**
 * Writes a tiny MaxMind DB file (MaxMind DB File Format Specification 2.0) for tests: an IPv4
 * search tree with 24-bit records, a data section and the metadata, holding GeoIP2-City-shaped
 * records for a few networks. Enough for core/lib/geoip.ts to read like a real GeoLite2 file.
 */

type Value = string | number | { uint: number } | Value[] | { [key: string]: Value };

function control(type: number, size: number): Buffer {
  const extended = type > 7;
  const head = [((extended ? 0 : type) << 5) | (size < 29 ? size : size < 285 ? 29 : 30)];
  if (extended) head.push(type - 7);
  if (size >= 29 && size < 285) head.push(size - 29);
  else if (size >= 285) head.push(((size - 285) >> 8) & 0xff, (size - 285) & 0xff);
  return Buffer.from(head);
}

function uintBytes(n: number): Buffer {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from(bytes);
}

/** Encodes a value: strings (type 2), doubles (3, for non-integers), uint32 (6, for integers or `{uint}`), maps (7), arrays (11). */
function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return Buffer.concat([control(3, 8), bytes]);
  }
  if (typeof value === 'number' || (typeof value === 'object' && !Array.isArray(value) && typeof value.uint === 'number')) {
    const bytes = uintBytes(typeof value === 'number' ? value : (value.uint as number));
    return Buffer.concat([control(6, bytes.length), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])]);
}

/** One network of the file: `cidr` like `81.0.0.0/8`, and its record. */
export interface MmdbNetwork {
  cidr: string;
  record: { [key: string]: Value };
}

/** The bytes of an IPv4 MaxMind DB holding `networks`. */
export function buildMmdb(networks: readonly MmdbNetwork[]): Buffer {
  interface Node {
    children: [Node | number | null, Node | number | null];
  }
  const root: Node = { children: [null, null] };
  const data: Buffer[] = [];
  let dataLength = 0;
  for (const { cidr, record } of networks) {
    const [address, bitsText] = cidr.split('/') as [string, string];
    const ip = address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
    const bits = Number(bitsText);
    const encoded = encode(record);
    const offset = dataLength;
    data.push(encoded);
    dataLength += encoded.length;
    let node = root;
    for (let i = 0; i < bits; i++) {
      const bit = Math.floor(ip / 2 ** (31 - i)) % 2;
      if (i === bits - 1) node.children[bit] = offset;
      else {
        const next = node.children[bit];
        if (typeof next === 'object' && next !== null) node = next;
        else node = node.children[bit] = { children: [null, null] };
      }
    }
  }
  const nodes: Node[] = [];
  const number = new Map<Node, number>();
  const visit = (n: Node) => {
    number.set(n, nodes.length);
    nodes.push(n);
    for (const c of n.children) if (typeof c === 'object' && c !== null) visit(c);
  };
  visit(root);
  const nodeCount = nodes.length;
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach((n, i) => {
    n.children.forEach((c, side) => {
      const record = c === null ? nodeCount : typeof c === 'number' ? nodeCount + 16 + c : number.get(c)!;
      tree.writeUIntBE(record, i * 6 + side * 3, 3);
    });
  });
  const metadata = encode({
    node_count: nodeCount,
    record_size: 24,
    ip_version: 4,
    database_type: 'GeoLite2-City',
    languages: ['en'],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: { uint: 1_700_000_000 },
    description: { en: 'Gatehouse test database' },
  });
  return Buffer.concat([tree, Buffer.alloc(16), ...data, Buffer.from('abcdef4d61784d696e642e636f6d', 'hex'), metadata]);
}
