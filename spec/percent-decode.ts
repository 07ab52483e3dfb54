// Percent-decoding as clients' text comes: a malformed escape (`%zz`, a lone `%`, half of
// a multi-byte character) throws in `decodeURI` and `decodeURIComponent`, which would lose
// every good escape beside it. Here each run of escapes is decoded on its own and a run
// that does not decode is left as it is. The router's reading (judges/route.ts) and the
// secret mask (contract-tests/shared/mask.ts) both read text this way.

/** `text` decoded by `decode` (`decodeURI` or `decodeURIComponent`), malformed escapes left as they are. */
export function tolerantlyDecoded(text: string, decode: (s: string) => string): string {
  try {
    return decode(text);
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decode(run);
      } catch {
        return run;
      }
    });
  }
}
