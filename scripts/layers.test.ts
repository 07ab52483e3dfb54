// `npm test` fails on a wrong-way import between the project's layers.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { layerViolations, references } from './layers.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('layers: spec <- fixtures <- {mocks, contract-tests} <- scripts <- e2e', () => {
  it('holds in this repository', () => {
    expect(layerViolations(REPO).map((v) => v.message)).toEqual([]);
  });

  it('reports each wrong-way import with its file and line', () => {
    const root = tree({
      'spec/model.ts': "import { x } from '../fixtures/load.ts';\n",
      'fixtures/load.ts': "import { loadModel } from '../spec/model.ts';\n",
      'contract-tests/lib/a.ts':
        "// reads the mock\nimport type { MockApp } from '../../mocks/app.ts';\nexport * from " +
        "'../../mocks/search.ts';\n",
      'contract-tests/lib/b.ts':
        "const m = await import('../../mocks/server.ts');\nconst u = new URL('../../mocks/cli.ts', import.meta.url);\n",
      'mocks/app.ts': "import { run } from '../contract-tests/run.ts';\nimport { sh } from '../scripts/bench.ts';\n",
      'scripts/bench.ts': "import '../mocks/app.ts';\nimport '../contract-tests/run.ts';\n",
    });
    expect(layerViolations(root).map((v) => v.message)).toEqual([
      'spec/model.ts:1 imports fixtures/load.ts: spec may import only from testing, cli, spec',
      'mocks/app.ts:1 imports contract-tests/run.ts: mocks may import only from testing, cli, spec, fixtures, mocks',
      'mocks/app.ts:2 imports scripts/bench.ts: mocks may import only from testing, cli, spec, fixtures, mocks',
      'contract-tests/lib/a.ts:2 imports mocks/app.ts: contract-tests may import only from testing, cli, ' +
        'spec, fixtures, contract-tests',
      'contract-tests/lib/a.ts:3 imports mocks/search.ts: contract-tests may import only from testing, cli, ' +
        'spec, fixtures, contract-tests',
      'contract-tests/lib/b.ts:1 imports mocks/server.ts: contract-tests may import only from testing, cli, ' +
        'spec, fixtures, contract-tests',
      'contract-tests/lib/b.ts:2 imports mocks/cli.ts: contract-tests may import only from testing, cli, ' +
        'spec, fixtures, contract-tests',
    ]);
  });

  it('lets every layer use testing/ and cli/, which themselves import nothing of the project', () => {
    const root = tree({
      'contract-tests/test/report.e2e.ts': "import { launchChromium } from '../../testing/chromium.ts';\n",
      'mocks/docs.e2e.ts': "import { launchChromium } from '../testing/chromium.ts';\n",
      'mocks/options.ts': "import { parseFlags } from '../cli/flags.ts';\n",
      'spec/x.ts': "import { parseFlags } from '../cli/flags.ts';\n",
      'testing/chromium.ts': "import { x } from '../mocks/app.ts';\n",
      'cli/flags.ts': "import { x } from '../spec/model.ts';\n",
    });
    expect(layerViolations(root).map((v) => v.message)).toEqual([
      'testing/chromium.ts:1 imports mocks/app.ts: testing may import only from testing',
      'cli/flags.ts:1 imports spec/model.ts: cli may import only from cli',
    ]);
  });

  it("keeps test support (testing/, a layer's testing/) out of production code: only tests and tools use it", () => {
    const root = tree({
      'mocks/core/app.ts': "import { useApp } from '../testing/test-app.ts';\n",
      'mocks/node/clock.ts': "import { NOW } from '../../testing/instants.ts';\n",
      'contract-tests/run/suite.ts': "const t = await import('../../testing/instants.ts');\n",
      'spec/model.ts': "import { rawConnection } from '../testing/raw-http.ts';\n",
      // Tests, test support itself, the scripts (tools) and e2e may.
      'mocks/core/app.test.ts': "import { useApp } from '../testing/test-app.ts';\n",
      'mocks/testing/test-app.ts': "import { NOW } from '../../testing/instants.ts';\n",
      'contract-tests/run/suite.test.ts': "import { NOW } from '../../testing/instants.ts';\n",
      'scripts/fuzz.ts': "import { rawConnection } from '../testing/raw-http.ts';\n",
      'e2e/mock.browser.ts': "import { launchChromium } from '../testing/chromium.ts';\n",
      'e2e/helpers.ts': "import { NOW } from '../testing/instants.ts';\n",
    });
    const rule = 'production code never imports test support (testing/, <layer>/testing/)';
    expect(layerViolations(root).map((v) => v.message)).toEqual([
      `spec/model.ts:1 imports testing/raw-http.ts: ${rule}`,
      `mocks/core/app.ts:1 imports mocks/testing/test-app.ts: ${rule}`,
      // mocks/testing/ is also a room of the mock that no other room leans on.
      'mocks/core/app.ts:1 imports mocks/testing/test-app.ts: mocks/core may import only from mocks/dataset, ' +
        'mocks/search, mocks/docs-page, mocks/core',
      `mocks/node/clock.ts:1 imports testing/instants.ts: ${rule}`,
      `contract-tests/run/suite.ts:1 imports testing/instants.ts: ${rule}`,
    ]);
  });

  it('keeps the rooms of the mock one way: dataset <- search <- core <- node, sources only', () => {
    const root = tree({
      'mocks/core/app.ts':
        "import { startMock } from '../node/server.ts';\nimport { search } from '../search/search.ts';\n",
      'mocks/search/search.ts':
        "import type { AppEnv } from '../core/env.ts';\nimport { serverAt } from '../dataset/columns.ts';\n",
      'mocks/dataset/snapshot.ts': "import { buildIndex } from '../search/search-index.ts';\n",
      'mocks/docs-page/docs-page.ts': "import type { AppEnv } from '../core/env.ts';\n",
      'mocks/core/auth/auth.test.ts':
        "import { useApp } from '../../testing/test-app.ts';\nimport { startMock } from '../../node/server.ts';\n",
    });
    expect(layerViolations(root).map((v) => v.message)).toEqual([
      'mocks/core/app.ts:1 imports mocks/node/server.ts: mocks/core may import only from mocks/dataset, ' +
        'mocks/search, mocks/docs-page, mocks/core',
      'mocks/dataset/snapshot.ts:1 imports mocks/search/search-index.ts: mocks/dataset may import only from ' +
        'mocks/dataset',
      'mocks/docs-page/docs-page.ts:1 imports mocks/core/env.ts: mocks/docs-page may import only from mocks/docs-page',
      'mocks/search/search.ts:1 imports mocks/core/env.ts: mocks/search may import only from mocks/dataset, ' +
        'mocks/search',
    ]);
  });

  it("makes no exception for the suite's --start-mock: it runs the mock as a program", () => {
    expect(
      layerViolations(
        tree({ 'contract-tests/run.ts': "await import(new URL('../mocks/server.ts', import.meta.url).href);\n" }),
      ),
    ).toHaveLength(1);
  });

  it('reads imports, not words that look like them', () => {
    expect(references("// import x from '../mocks/app.ts'\nconst s = \"from '../mocks/app.ts'\";\n")).toEqual([]);
    expect(references("import a from 'hono';\nimport b from './b.ts';\n")).toEqual([{ specifier: './b.ts', line: 2 }]);
  });
});
