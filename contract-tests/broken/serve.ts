// `npx tsx contract-tests/broken/serve.ts <defect>`: serves one reference server and prints
// its base URL, to try the suite (or the Prism proxy) against a known defect by hand.
import { DEFECTS, startReferenceServer, type Defect } from './reference-server.ts';

const defect = (process.argv[2] ?? 'none') as Defect;
if (!(defect in DEFECTS)) {
  console.error(`unknown defect '${defect}'; one of: ${Object.keys(DEFECTS).join(', ')}`);
  process.exit(2);
}
const server = await startReferenceServer(defect);
console.log(`${server.baseUrl} (${defect}: ${DEFECTS[defect]})`);
const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
