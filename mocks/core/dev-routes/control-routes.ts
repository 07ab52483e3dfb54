// The mock's controls over HTTP, for Playwright, Cypress or any e2e tool (the same as
// createMock's methods, through mocks/core/control.ts):
//   POST   /__mock/overrides       one override, or a list: 201 with them (ids), or 400 naming every problem
//   GET    /__mock/overrides       every override, newest first, with how often each was used
//   DELETE /__mock/overrides[/id]  all of them, or one
//   GET    /__mock/requests        the journal (?operationId=&method=&status=&path=&findings=&after=&limit=),
//                                  JSON, or the page when a browser asks for HTML
//   DELETE /__mock/requests        forgets the journal
//   GET    /__mock/usage           the usage profile of --consumer, the file itself (curl -o web.json)
//   DELETE /__mock/usage           starts it afresh
// POST /__mock/reset (dev-routes.ts) clears overrides and journal, with the keys and sessions; not the usage.
import type { Context, Hono } from 'hono';
import type { MockControl } from '../control.ts';
import type { AppEnv } from '../env.ts';
import { FilterError } from '../journal/entry-view.ts';
import { journalPage } from '../journal/journal-page.ts';
import { OverrideError } from '../overrides/override.ts';
import { jsonProblem } from '../printable.ts';

interface ControlRouteDeps {
  reply: (c: Context, status: number, body: unknown) => Response;
  fail: (c: Context, status: number, detail?: string) => Response;
  operations: string[];
  basePath: string;
}

/** A browser asking for a page (its Accept names HTML before JSON). */
function wantsHtml(c: Context): boolean {
  const accept = c.req.header('accept') ?? '';
  const page = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return page !== -1 && (json === -1 || page < json);
}

export function mountControlRoutes(app: Hono<AppEnv>, control: MockControl, deps: ControlRouteDeps): void {
  const { reply, fail } = deps;
  const refused = (c: Context, err: unknown) => {
    if (err instanceof OverrideError || err instanceof FilterError) return fail(c, 400, err.problems.join('; '));
    throw err;
  };

  app.post('/__mock/overrides', async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch (err) {
      return fail(c, 400, `the request body is not valid JSON: ${jsonProblem(err)}`);
    }
    try {
      const overrides = control.use(Array.isArray(body) ? body : [body]);
      return reply(c, 201, { success: true, overrides });
    } catch (err) {
      return refused(c, err);
    }
  });
  app.get('/__mock/overrides', (c) => reply(c, 200, { success: true, overrides: control.overrides() }));
  app.delete('/__mock/overrides', (c) => {
    const removed = control.overrides().length;
    control.clearOverrides();
    return reply(c, 200, { success: true, removed });
  });
  app.delete('/__mock/overrides/:id', (c) => {
    const id = c.req.param('id');
    if (!/^\d{1,9}$/.test(id) || !control.removeOverride(Number(id)))
      return fail(c, 404, `no override with id '${id.slice(0, 20)}' (GET /__mock/overrides lists them)`);
    return reply(c, 200, { success: true, removed: 1 });
  });

  app.get('/__mock/requests', (c) => {
    if (wantsHtml(c)) return c.html(journalPage(deps.operations, deps.basePath));
    try {
      const requests = control.requests(c.req.query());
      return reply(c, 200, { success: true, journal: control.journal(), requests });
    } catch (err) {
      return refused(c, err);
    }
  });
  app.delete('/__mock/requests', (c) => {
    control.clearRequests();
    return reply(c, 200, { success: true, message: 'The journal is empty' });
  });

  // The profile bare, not in an envelope: what `curl -o web.json` saves is what `diff --usage` reads.
  const noUsage = (c: Context) =>
    fail(c, 404, 'no usage profile is recorded: start the mock with --consumer NAME (createMock({ consumer }))');
  app.get('/__mock/usage', (c) => {
    const profile = control.usage();
    return profile ? reply(c, 200, profile) : noUsage(c);
  });
  app.delete('/__mock/usage', (c) =>
    control.clearUsage() ? reply(c, 200, { success: true, message: 'The usage profile starts afresh' }) : noUsage(c),
  );
}
