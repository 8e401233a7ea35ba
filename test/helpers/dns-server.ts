import { createSocket, type Socket } from 'node:dgram';

/**
 * A tiny authoritative DNS responder on a loopback UDP port (RFC 1035 §4): answers TXT questions
 * from `records` (name → TXT strings, names lowercase without the trailing dot), NXDOMAIN for
 * any other name. Enough for domain verification tests through node's `dns.Resolver`
 * (`GATEHOUSE_DNS_SERVERS=127.0.0.1:<port>`).
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for `dnsServers`. */
  address: string;
  records: Map<string, string[]>;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, string[]>();
  const socket: Socket = createSocket('udp4');
  socket.on('message', (query, remote) => {
    try {
      const reply = answer(query, records);
      if (reply) socket.send(reply, remote.port, remote.address);
    } catch {
      /* a malformed query gets no answer */
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    records,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function answer(query: Buffer, records: Map<string, string[]>): Buffer | null {
  if (query.length < 12) return null;
  const labels: string[] = [];
  let offset = 12;
  while (query[offset]! !== 0) {
    const length = query[offset]!;
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += 1 + length;
  }
  const questionEnd = offset + 5; // zero byte, QTYPE, QCLASS
  const qtype = query.readUInt16BE(offset + 1);
  const name = labels.join('.').toLowerCase();
  const found = records.get(name);
  const answers = qtype === 16 && found ? found : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | (found ? 0 : 3), 2); // QR, AA, RD copied, NXDOMAIN
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const parts = [header, query.subarray(12, questionEnd)];
  for (const text of answers) {
    const data = Buffer.from(text, 'utf8');
    const rdata = Buffer.concat([Buffer.from([data.length]), data]);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the question's name
    rr.writeUInt16BE(16, 2); // TXT
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(rdata.length, 10);
    parts.push(rr, rdata);
  }
  return Buffer.concat(parts);
}
