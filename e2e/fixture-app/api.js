// The fixture app's API client: what a frontend team writes, plain fetch, nothing about
// mocks. The tests of mocks/README.md's recipes drive it: in vitest through MSW and
// createMock() (e2e/fixture-app.test.ts), and in Chromium as the page's own code against the
// mock's process (e2e/fixture-app.browser.ts).

/** A failure the UI shows: the API's message, or that the network failed. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export function createApi(base) {
  const call = async (path, init = {}) => {
    let res;
    try {
      res = await fetch(`${base}${path}`, { credentials: 'include', ...init });
    } catch {
      throw new ApiError('The server cannot be reached. Check your connection and try again.', 0);
    }
    let body;
    try {
      body = await res.json();
    } catch {
      throw new ApiError('The answer was cut off. Try again.', res.status);
    }
    if (!res.ok) throw new ApiError(body.message, res.status);
    return body;
  };
  return {
    /** One page of servers; `filters` are the search's parameters (region, motd, page, ...). */
    findServers(filters = {}) {
      const query = new URLSearchParams({ limit: '10', ...filters });
      return call(`/api/v0.1/servers/find?${query}`);
    },
    listKeys() {
      return call('/api/v0.1/user/apikeys');
    },
    createKey(name) {
      return call('/api/v0.1/user/apikeys', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    },
    /** The mock's development login (the real site has its own). */
    login(user) {
      return call('/__mock/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user }),
      });
    },
  };
}
