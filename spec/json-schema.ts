// Turns an OpenAPI 3.0 schema into a self-contained JSON Schema draft-07 document that
// Dredd's validator (Gavel, ajv 6) understands. Dredd's OpenAPI 3 adapter only derives a
// schema from the *example* (keys, not types), so without this a body with "port": "x"
// passes. What changes on the way:
// - every `$ref` is inlined (Gavel gets a lone schema, not the document);
// - `nullable: true` becomes `type: [T, "null"]` (and `null` joins an `enum`): draft-07
//   has no `nullable`, and ignoring it would reject every null the spec allows;
// - OpenAPI-only keywords (`example`, `x-*`, ...) are dropped, and so are the formats
//   only OpenAPI defines (`password`, `int32`, ...), which draft-07 validators refuse;
// - with a provenance level, parts softer than it are cut (a property the spec marks
//   `observed` is neither type-checked nor required when only `interface` is tested).
import { deref, type OpenApiDoc } from './load.ts';
import { provenanceOf, weakest, within, type Provenance } from './provenance.ts';

const OPENAPI_ONLY = new Set([
  'nullable',
  'example',
  'examples',
  'discriminator',
  'readOnly',
  'writeOnly',
  'xml',
  'externalDocs',
  'deprecated',
]);
/** OpenAPI's own formats (a hint, or a number's width): no format of draft-07, so ajv 6 (Gavel) throws on them. */
const OPENAPI_FORMATS = new Set(['password', 'int32', 'int64', 'float', 'double', 'byte', 'binary']);
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

type Schema = Record<string, any>;

/**
 * Where the conversion stands: the document, the level cut to, the provenance a
 * node without one inherits, the `$ref`s it is inside.
 */
interface Walk {
  doc: OpenApiDoc;
  level: Provenance;
  inherited: Provenance;
  stack: string[];
  /** Collects the levels of the body and of the properties the cut keeps. */
  kept: Provenance[];
  /** This node is a promise of its own (the body, or a property). */
  promise: boolean;
}

export function toJsonSchema(doc: OpenApiDoc, schema: unknown, level: Provenance = 'assumed'): Schema {
  // A node without x-provenance takes its parent's; a root without one (an inline wrapper
  // such as the 401 response's allOf) promises nothing by itself, so it is never cut.
  const out = convert(schema, { doc, level, inherited: 'interface', stack: [], kept: [], promise: false }) ?? {};
  return { $schema: DRAFT_07, ...out };
}

/**
 * How firm a check against the schema cut to `level` is: the softest of the body and the
 * properties the cut keeps (a body check relies on every property it validates; a
 * helper such as `NullValue`, the null branch of a nullable reference, is part of its
 * property and promises nothing by itself). Undefined when the cut keeps nothing, so
 * there is nothing to check at that level.
 */
export function schemaLevel(doc: OpenApiDoc, schema: unknown, level: Provenance = 'assumed'): Provenance | undefined {
  const kept: Provenance[] = [];
  return convert(schema, { doc, level, inherited: 'interface', stack: [], kept, promise: true }) && kept.length
    ? weakest(...kept)
    : undefined;
}

/** Returns undefined when the node is softer than the level (the caller drops it). */
function convert(node: unknown, walk: Walk): Schema | undefined {
  if (!node || typeof node !== 'object') return {};
  let current = node as Schema;
  let stack = walk.stack;
  if (typeof current.$ref === 'string') {
    if (stack.includes(current.$ref)) throw new Error(`recursive schema ${current.$ref} cannot be inlined`);
    stack = [...stack, current.$ref];
    current = deref<Schema>(walk.doc, current);
  }
  const provenance = provenanceOf(current) ?? walk.inherited;
  if (!within(provenance, walk.level)) return undefined;
  if (walk.promise) walk.kept.push(provenance);
  const inner = (promise: boolean): Walk => ({ ...walk, inherited: provenance, stack, promise });

  const out: Schema = {};
  for (const [key, value] of Object.entries(current)) {
    if (OPENAPI_ONLY.has(key) || key.startsWith('x-') || (key === 'format' && OPENAPI_FORMATS.has(value as string)))
      continue;
    switch (key) {
      case 'properties': {
        const props: Schema = {};
        for (const [name, prop] of Object.entries<any>(value)) {
          const converted = convert(prop, inner(true));
          if (converted) props[name] = converted;
        }
        out.properties = props;
        break;
      }
      case 'items':
      case 'not':
      case 'additionalProperties':
        out[key] = typeof value === 'object' ? (convert(value, inner(false)) ?? {}) : value;
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[key] = (value as unknown[]).map((s) => convert(s, inner(false)) ?? {});
        break;
      default:
        out[key] = value;
    }
  }
  // A property cut for its provenance is not promised to exist either.
  if (Array.isArray(out.required) && out.properties && current.properties) {
    out.required = out.required.filter((name: string) => !(name in current.properties) || name in out.properties);
    if (out.required.length === 0) delete out.required;
  }
  if (current.nullable === true) return nullable(out);
  return out;
}

function nullable(schema: Schema): Schema {
  if (typeof schema.type === 'string') {
    const out: Schema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [schema, { type: 'null' }] };
}
