import { describe, expect, it } from 'vitest';
import { expectError, useApp } from '../../testing/test-app.ts';

describe('the host check in the app', () => {
  it('refuses a host it does not answer with 403, naming the flag; answers the ones it was told', async () => {
    const m = useApp({ allowedHosts: ['api.myproj.test'] });
    await expectError(
      await m.fetch('http://evil.test:4010/__mock/reset', { method: 'POST' }),
      403,
      /the host 'evil\.test'.*--allowed-host evil\.test/,
    );
    expect((await m.fetch('http://api.myproj.test:4010/__mock/info')).status).toBe(200);
    expect((await m.fetch(m.url('/servers/find?limit=1'))).status).toBe(200);
  });
});
