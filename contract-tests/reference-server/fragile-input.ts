// Two defects of input handling that generated requests find in real backends, as one
// middleware: a parameter sent twice reaches the SQL as a row of values (500 with the
// database's error and the statement), and a character of 4 bytes in UTF-8 reaches a
// utf8mb3 column (500 naming the column). Each is switched on by its defect's name.
import type { MiddlewareHandler } from 'hono';
import { errorBody } from '../../spec/messages.ts';
import type { Defect } from './defects.ts';

/** Outside the Basic Multilingual Plane: 4 bytes in UTF-8, which MySQL's utf8mb3 cannot store. */
const FOUR_BYTES = /[\u{10000}-\u{10FFFF}]/u;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function fragileInput(has: (d: Defect) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const names = [...url.searchParams.keys()];
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (has('repeated-param-500') && twice) {
      const values = url.searchParams
        .getAll(twice)
        .map((v) => `'${v}'`)
        .join(', ');
      return c.text(
        `Error: ER_OPERAND_COLUMNS: Operand should contain 1 column(s)\n    at Packet.asError ` +
          `(/srv/app/node_modules/mysql2/lib/packets/packet.js:728:17)\n    sql: SELECT * FROM servers WHERE ` +
          `${twice} = (${values}) ORDER BY last_ping DESC LIMIT 50`,
        500,
      );
    }
    const odd = [...url.searchParams.values(), decoded(url.pathname)].find((v) => FOUR_BYTES.test(v));
    if (has('utf8mb4-500') && odd) {
      const bytes = [...Buffer.from(odd.match(FOUR_BYTES)![0])]
        .map((b) => `\\x${b.toString(16).toUpperCase()}`)
        .join('');
      return c.json(
        errorBody(
          500,
          `ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: Incorrect string value: '${bytes}' for column 'query' at row 1`,
        ),
        500,
      );
    }
    await next();
  };
}
