// `npm run spec:check`: the document is valid OpenAPI 3.0.3 (by a well-kept parser)
// and passes this project's linter of it (spec/lint.ts). Spectral and the generated-
// types check run beside it in the npm script.
import SwaggerParser from '@apidevtools/swagger-parser';
import { lintSpec } from '../spec/lint.ts';
import { loadSpec, SPEC_PATH } from '../spec/load.ts';

const doc = loadSpec();
let failed = false;
if (doc.openapi !== '3.0.3') {
  console.error(`spec: openapi is ${doc.openapi}, expected 3.0.3 (Dredd reads only 3.0)`);
  failed = true;
}
try {
  await SwaggerParser.validate(SPEC_PATH);
} catch (err) {
  console.error(`spec: not a valid OpenAPI document: ${(err as Error).message}`);
  failed = true;
}
const problems = lintSpec(doc);
for (const p of problems) console.error(`spec: ${p}`);
if (failed || problems.length) {
  console.error(`spec: ${problems.length + (failed ? 1 : 0)} problem(s) in ${SPEC_PATH}`);
  process.exit(1);
}
console.log('spec: valid OpenAPI 3.0.3; examples, provenance, parameter examples and auth bodies all check out');
