// Which hosts a program answers (the mock and the validation proxy), and the --allowed-host list.
import { describe, expect, it } from 'vitest';
import { hostMatcher, hostnameOf, parseAllowedHosts } from './allowed-hosts.ts';

describe('which hosts are answered', () => {
  const answers = hostMatcher(['mock.lan', '.myproj.test']);

  it.each([
    ['127.0.0.1:4010', true],
    ['localhost', true],
    ['LocalHost.:4010', true],
    ['app.localhost:5173', true],
    ['192.168.1.5:4010', true],
    ['[::1]:4010', true],
    ['[fe80::1]', true],
    ['mock.lan:4010', true],
    ['myproj.test', true],
    ['api.myproj.test:4010', true],
    ['evil.test:4010', false],
    ['localhost.evil.test', false],
    ['myproj.test.evil.test', false],
    ['notmyproj.test', false],
    ['mock.lan.evil.test', false],
    ['[not-an-address]', false],
  ])('%s: %s', (host, answered) => {
    expect(answers(host)).toBe(answered);
  });

  it('* answers any host', () => {
    expect(hostMatcher(['*'])('evil.test')).toBe(true);
  });

  it('the host name of a Host value: port and brackets off, lower-cased, no trailing dot', () => {
    expect(hostnameOf('[::1]:4010')).toBe('::1');
    expect(hostnameOf('API.MyProj.Test.:80')).toBe('api.myproj.test');
  });
});

describe('--allowed-host LIST', () => {
  it('takes names, .domains and *', () => {
    expect(parseAllowedHosts(' api, .MyProj.test ,*')).toEqual(['api', '.myproj.test', '*']);
  });

  it.each([
    ['http://api.test:4010', /is a URL; write its host name alone, e.g. api.test/],
    ['api.test:4010', /not a host name \(no port/],
    ['api.test/x', /not a host name/],
    [' , ', /needs at least one host name/],
  ])('refuses %j with the fix', (raw, message) => {
    expect(() => parseAllowedHosts(raw)).toThrow(message);
  });
});
