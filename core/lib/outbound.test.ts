import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { connectToHost, isPrivateAddress, PRIVATE_ADDRESS_ERROR } from './outbound.ts';

describe('outbound address policy (issue 12 finding 7)', () => {
  it('classifies loopback, private, link-local and reserved IPv4 and IPv6 addresses (and their mapped forms) as private', () => {
    const privateOnes = [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.0.8',
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '0:0:0:0:0:ffff:10.0.0.1',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      'fec0::1',
      'ff02::1',
      '2001:db8::1',
      '2001::1',
      'localhost',
      'not-an-ip',
    ];
    for (const address of privateOnes) assert.equal(isPrivateAddress(address), true, address);
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ]) {
      assert.equal(isPrivateAddress(address), false, address);
    }
  });

  it('refuses to connect to a loopback service by IP literal or by a name that resolves to it, and connects when private addresses are allowed', async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.on('error', () => {});
      socket.end('220 secret banner\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      for (const host of ['127.0.0.1', 'localhost', '[::1]', '::ffff:127.0.0.1']) {
        await assert.rejects(
          connectToHost(host, port, { allowPrivate: false, timeoutMs: 2000 }),
          (error: NodeJS.ErrnoException) => error.code === PRIVATE_ADDRESS_ERROR,
          host,
        );
      }
      assert.equal(connections, 0, 'nothing reached the loopback service');
      const socket = await connectToHost('127.0.0.1', port, { allowPrivate: true, timeoutMs: 2000 });
      socket.destroy();
    } finally {
      server.close();
    }
  });
});
