// The hygiene scan finds what servers leak (stack traces, SQL, file paths, framework
// pages) and stays quiet on what real rows hold.
import { describe, expect, test } from 'vitest';
import { findLeaks } from './leaks.ts';

const kinds = (text: string, json?: unknown) => findLeaks(text, json).map((l) => l.kind);

describe('findLeaks', () => {
  test.each([
    ['a Node stack frame', 'TypeError: x\n    at findServers (/srv/app/src/routes.js:88:21)', 'stack trace'],
    ['a Python traceback', 'Traceback (most recent call last):\n  File "/app/api.py", line 12, in find', 'stack trace'],
    ['a Java frame', 'at com.example.api.Servers.find(Servers.java:42)', 'stack trace'],
    ['a stack in an error JSON', '{"error":"boom","stack":"Error: boom"}', 'stack trace'],
    ["MySQL's syntax error", "ER_PARSE_ERROR: You have an error in your SQL syntax near 'abc'", 'SQL text'],
    ["Postgres' syntax error", 'syntax error at or near "abc"', 'SQL text'],
    ['a statement', 'query failed: SELECT * FROM servers WHERE players_online >= abc LIMIT 50', 'SQL text'],
    ['a server file path', 'cannot open /var/www/api/config/db.yaml', 'file path'],
    ['node_modules', 'in node_modules/mysql/lib/Connection.js', 'file path'],
    ["Express's default 404 page", '<pre>Cannot GET /api/v0.1/nope</pre>', 'framework internals'],
    ['an ORM error', 'SequelizeDatabaseError: invalid input', 'framework internals'],
  ])('finds %s', (_name, text, kind) => {
    expect(kinds(text)).toContain(kind);
  });

  test('finds a stack trace inside a JSON string, where its line breaks are escaped', () => {
    const body = {
      success: false,
      message: 'Internal Server Error',
      detail: 'Error: x\n    at Object.<anonymous> (/home/app/index.js:3:9)',
    };
    expect(kinds(JSON.stringify(body), body)).toContain('stack trace');
  });

  test.each([
    ["the spec's 400 body", '{"success":false,"message":"Bad Request: query parameter \'limit\' must be integer"}'],
    ['a MOTD that reads like SQL', '{"motd":"§aSelect a mode from the menu where you spawn"}'],
    ['Minecraft commands in a MOTD', '{"motd":"Use /home and /spawn, /warp /tmp/arena"}'],
    [
      "an unknown path in the mock's 404",
      '{"success":false,"message":"Not Found: no route for GET /api/v0.1/nope; the API lives under /api/v0.1"}',
    ],
    ['a plugin list', '{"plugins":["EssentialsX;LuckPerms","WorldEdit"]}'],
  ])('stays quiet on %s', (_name, text) => {
    expect(findLeaks(text, JSON.parse(text))).toEqual([]);
  });

  test('names each kind once, with the text around it', () => {
    const leaks = findLeaks(
      'You have an error in your SQL syntax\n at q (/srv/app/db.js:1:2)\n at r (/srv/app/db.js:3:4)',
    );
    expect(leaks.map((l) => l.kind)).toEqual(['stack trace', 'SQL text', 'file path']);
    expect(leaks[1]!.excerpt).toContain('You have an error in your SQL syntax');
  });
});
