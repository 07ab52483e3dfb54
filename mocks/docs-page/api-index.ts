// `GET /api/v0.1`: what a developer who opens the base URL wants to see: every operation
// of the spec with its method, full path, summary and who may call it, and links to the
// docs page and the spec. Mock-only: the spec does not promise it of the real service.
import type { Context, Env, Hono } from 'hono';
import type { SpecModel } from '../../spec/model.ts';
import { DOCS_PATH, docsAnchor, requestOrigin, SPEC_JSON_PATH, SPEC_YAML_PATH } from './docs-page.ts';

export function apiIndex(model: SpecModel, origin: string): Record<string, unknown> {
  const { info } = model.doc;
  return {
    success: true,
    name: info.title,
    version: info.version,
    message:
      `This is the mock of ${String(info.title)}; every operation is listed below. Interactive docs: ` +
      `${origin}${DOCS_PATH}`,
    docs: `${origin}${DOCS_PATH}`,
    openapi: { json: `${origin}${SPEC_JSON_PATH}`, yaml: `${origin}${SPEC_YAML_PATH}` },
    operations: model.operations.map((op) => ({
      operationId: op.operationId,
      method: op.method,
      path: `${model.basePath}${op.path}`,
      summary: op.raw.summary ?? '',
      public: op.isPublic,
      // Schemes that may perform it (x-credentials), for a protected operation.
      ...(op.isPublic ? {} : { credentials: op.allowedSchemes }),
      docs: `${origin}${DOCS_PATH}${docsAnchor(op)}`,
    })),
  };
}

export function mountApiIndex<E extends Env>(
  app: Hono<E>,
  model: SpecModel,
  reply: (c: Context, status: number, body: unknown) => Response,
): void {
  const answer = (c: Context) => reply(c, 200, apiIndex(model, requestOrigin(c)));
  app.get(model.basePath, answer);
  app.get(`${model.basePath}/`, answer);
}
