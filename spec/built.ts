// What the build worked out from spec/openapi.yaml, for the bundles in dist/ (the mock,
// the package's library entry): the document already parsed and its request validators
// already compiled. scripts/build-mock.ts writes this module's contents into each bundle;
// run from the sources (tests, tsx), it holds nothing and both are done at start-up.
// Used only for a document whose text is byte for byte the one built from (its sha256):
// an edited spec, or another copy given with --spec, is parsed and compiled afresh.
import type { ValidateFunction } from 'ajv';

export interface BuiltSpec {
  /** sha256 (hex) of the spec's text the build read. */
  sha256: string;
  /** The document, as JSON text (parsing JSON is many times faster than parsing YAML). */
  json: string;
  /** Validators compiled by ajv's standalone code, by validatorKey (spec/validator.ts). */
  validators: Readonly<Record<string, ValidateFunction>>;
}

export const BUILT_SPEC: BuiltSpec | undefined = undefined;
