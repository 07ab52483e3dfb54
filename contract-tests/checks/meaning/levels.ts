// How firm a check of a parameter's `x-meaning` is: the softest of the operation, the
// parameter and every part of the rows it reads (fields, counts).
import { countsOf, fieldsOf } from '../../../spec/meaning.ts';
import type { Meaning, Operation, Parameter } from '../../../spec/model.ts';
import { weakest, type Provenance } from '../../../spec/provenance.ts';

export function meaningProvenance(op: Operation, param: Parameter, m: Meaning): Provenance {
  const rows = op.rows;
  return weakest(
    op.provenance,
    param.provenance,
    rows?.provenance,
    ...fieldsOf(m).map((f) => rows?.fields.get(f)?.provenance),
    ...countsOf(m).map((c) => rows?.siblings.get(c)),
  );
}
