// `npx tsx contract-tests/reference-server/serve.ts <defect>[,<defect>...]`: serves one reference
// server and prints its base URL, to try the suite (or the Prism proxy) against known
// defects by hand.
import { DEFECTS, type Defect } from './defects.ts';
import { startReferenceServer } from './socket.ts';

const defects = (process.argv[2] ?? 'none').split(',') as Defect[];
const unknown = defects.filter((d) => !(d in DEFECTS));
if (unknown.length) {
  console.error(`unknown defect '${unknown.join(', ')}'; one of: ${Object.keys(DEFECTS).join(', ')}`);
  process.exit(2);
}
const server = await startReferenceServer(defects);
console.log(`${server.baseUrl} (${defects.map((d) => `${d}: ${DEFECTS[d]}`).join('; ')})`);
const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
