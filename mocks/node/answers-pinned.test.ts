// The mock's answers, pinned: for two seeds and sizes, the sha256 (first 16 hex digits) of
// each body as the build before issue 24 answered it (f5e275e, `--now` pinned, over HTTP).
// Issue 24 rewrote the generator, the sort orders and what the build does ahead of a start;
// none of it may change a byte a client gets. A deliberate change to the generated data or
// to an answer updates these digests, and says so in its commit. (Issue 19 made `region`
// take any case: the lower-case spelling answered 400 before, so only `EU` is pinned.)
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from './in-process.ts';
import { NOW_ISO } from '../../testing/instants.ts';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

const PINNED: [seed: number, servers: number, answers: [path: string, sha256: string][]][] = [
  [
    1337,
    1000,
    [
      ['servers/find?limit=20', 'cd67661681e44f34'],
      ['servers/find?sort=address&page=7&limit=50&noFilter=true', '2de6f06bad08e0b9'],
      ['servers/find?version=1.20*&minUsers=5&sort=users', 'd81416a0595718e6'],
      ['servers/find?country=de&sort=version', '93a3b6881c42c688'],
      ['servers/find?region=EU&sort=port&page=2', '46ef53e1770405df'],
      ['servers/find?motd=survival&favicon=true', 'b7e0f6c49900b034'],
      ['servers/find?org=hetzner&maxAge=90&noFilter=true', '30c890c45a4905d7'],
      ['servers/find?minAge=1&maxAge=365&sort=users&order=asc', 'e890257fe74735da'],
      ['servers/find?modpack=all&limit=100', 'c8bccfbeb44d5656'],
      ['servers/find?relativeTime=true&limit=5', '180ff7e03772a38d'],
      ['servers/find?offlineOnly=on&sort=address', '97b0d20915ae1595'],
      ['servers/find?city=a&asn=24940', 'd89279399546a43e'],
      ['metadata/versions', 'd7d3b1617a887a28'],
      ['metadata/versions?limit=3&version=1.2*', '81de0e42de45b589'],
      ['metadata/countries', '99d929489de42526'],
      ['metadata/regions', 'e47ac75c161c973c'],
      ['status/ping/example.org', '22c454a8ff267680'],
    ],
  ],
  [
    42,
    5000,
    [
      ['servers/find?limit=20', 'f29c0c766f3b4fce'],
      ['servers/find?sort=address&page=7&limit=50&noFilter=true', '34376a5773377069'],
      ['servers/find?version=1.20*&minUsers=5&sort=users', '36a857a86b65fe04'],
      ['servers/find?country=de&sort=version', 'dbe7b76ecc796cc5'],
      ['servers/find?region=EU&sort=port&page=2', '9934b76d8755eb82'],
      ['servers/find?motd=survival&favicon=true', '89052cea7f2667c6'],
      ['servers/find?org=hetzner&maxAge=90&noFilter=true', '8394b30187dbae27'],
      ['servers/find?minAge=1&maxAge=365&sort=users&order=asc', '3f91712890cc756d'],
      ['servers/find?modpack=all&limit=100', 'c8bccfbeb44d5656'],
      ['servers/find?relativeTime=true&limit=5', '800d7e04b255856d'],
      ['servers/find?offlineOnly=on&sort=address', '82e4e33f510ded00'],
      ['servers/find?city=a&asn=24940', '7270c1ab329fb52f'],
      ['metadata/versions', '49e0694cb67d3a4b'],
      ['metadata/versions?limit=3&version=1.2*', '56be6273f95dab08'],
      ['metadata/countries', '2d600238aba90010'],
      ['metadata/regions', 'e05ce37645b54c6f'],
      ['status/ping/example.org', '22c454a8ff267680'],
    ],
  ],
];

describe.each(PINNED)('seed %i, %i servers: the answers the build before issue 24 gave', (seed, servers, answers) => {
  let mock: InProcessMock | undefined;
  afterAll(() => mock?.close());
  it.each(answers)('%s', async (path, digest) => {
    mock ??= createMock({ seed, servers, now: NOW_ISO, cacheDir: null });
    const res = await mock.fetch(`http://localhost/api/v0.1/${path}`);
    expect(sha(await res.text())).toBe(digest);
  });
});
