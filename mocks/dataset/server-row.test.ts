import { describe, expect, it } from 'vitest';
import { isTcpShield, serverKey, stripMotd } from './server-row.ts';

describe('stored-row rules', () => {
  it('stripMotd drops § codes', () => {
    expect(stripMotd('§aHi§r §lthere')).toBe('Hi there');
  });

  it('isTcpShield goes by the ASN organisation', () => {
    expect(isTcpShield({ asn_name: 'TCPShield Inc.' })).toBe(true);
    expect(isTcpShield({ asn_name: 'OVH SAS' })).toBe(false);
  });

  it("serverKey ignores the host's case, not the port", () => {
    expect(serverKey('Play.Example.NET', 25565)).toBe(serverKey('play.example.net', 25565));
    expect(serverKey('play.example.net', 25565)).not.toBe(serverKey('play.example.net', 25566));
  });
});
