import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { listenOrigins } from './listen-urls.ts';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({
    address,
    family,
    internal,
    netmask: '',
    mac: '',
    cidr: null,
    ...(family === 'IPv6' ? { scopeid: 0 } : {}),
  }) as NetworkInterfaceInfo;
const MACHINE = {
  lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
  eth0: [nic('192.168.1.5', 'IPv4'), nic('fe80::1', 'IPv6'), nic('2001:db8::5', 'IPv6')],
  docker0: [nic('172.17.0.1', 'IPv4')],
};

describe('listenOrigins', () => {
  it('a concrete host is its own URL (IPv6 in brackets)', () => {
    expect(listenOrigins('127.0.0.1', 4010, MACHINE)).toEqual(['http://127.0.0.1:4010']);
    expect(listenOrigins('::1', 4010, MACHINE)).toEqual(['http://[::1]:4010']);
    expect(listenOrigins('localhost', 80, MACHINE)).toEqual(['http://localhost:80']);
  });

  it('0.0.0.0 lists the IPv4 addresses, loopback first; never 0.0.0.0 itself', () => {
    expect(listenOrigins('0.0.0.0', 4010, MACHINE)).toEqual([
      'http://127.0.0.1:4010',
      'http://192.168.1.5:4010',
      'http://172.17.0.1:4010',
    ]);
  });

  it(':: adds IPv6, without link-local addresses', () => {
    expect(listenOrigins('::', 4010, MACHINE)).toEqual([
      'http://127.0.0.1:4010',
      'http://[::1]:4010',
      'http://192.168.1.5:4010',
      'http://172.17.0.1:4010',
      'http://[2001:db8::5]:4010',
    ]);
  });
});
