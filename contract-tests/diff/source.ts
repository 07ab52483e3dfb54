// Where a version of the spec comes from: a file, or a git ref (`main`, `HEAD~1`, a tag),
// read with `git show <ref>:<spec path>` in the directory the command runs in. Every
// failure says what was tried and what git said.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { parseSpec, type OpenApiDoc } from '../../spec/load.ts';
import { DocumentError } from './diff.ts';

export interface Source {
  /** `spec/openapi.yaml`, or `main:spec/openapi.yaml`. */
  name: string;
  doc: OpenApiDoc;
}

function parse(text: string, name: string): OpenApiDoc {
  try {
    return parseSpec(text);
  } catch (err) {
    throw new DocumentError(`${name}: not YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
}

export function fromFile(path: string, cwd: string, label: string): Source {
  const full = resolve(cwd, path);
  let text: string;
  try {
    if (statSync(full).isDirectory()) throw new Error('it is a directory');
    text = readFileSync(full, 'utf8');
  } catch (err) {
    throw new DocumentError(
      `${label} ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  return { name: path, doc: parse(text, path) };
}

function git(args: string[], cwd: string): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

const gitSays = (err: unknown) =>
  String((err as { stderr?: string }).stderr ?? (err as Error).message)
    .trim()
    .split('\n')[0];

/** The spec at a git ref; `specPath` is relative to `cwd` (as typed) or absolute. */
export function fromGitRef(ref: string, specPath: string, cwd: string, label: string): Source {
  // A ref is handed to git as one argument, never to a shell; one that starts with `-` would read as an option.
  if (!ref || ref.startsWith('-') || /[\s:]/.test(ref))
    throw new DocumentError(`${label} '${ref}': neither a file nor a git ref`);
  let inRepo: string;
  try {
    const top = git(['rev-parse', '--show-toplevel'], cwd).trim();
    inRepo = isAbsolute(specPath) ? relative(top, specPath) : `./${specPath}`;
  } catch (err) {
    throw new DocumentError(`${label} '${ref}': no such file, and not a git ref here (${gitSays(err)})`);
  }
  const name = `${ref}:${specPath}`;
  let text: string;
  try {
    text = git(['show', `${ref}:${inRepo}`], cwd);
  } catch (err) {
    throw new DocumentError(
      `${label} '${ref}': no such file, and git cannot read ${name} (${gitSays(err)}); pass --spec-path if ` +
        `the spec lives elsewhere`,
    );
  }
  return { name, doc: parse(text, name) };
}

/** A file when one exists at that path, else a git ref. */
export function sourceOf(given: string, specPath: string, cwd: string, label: string): Source {
  return existsSync(resolve(cwd, given)) ? fromFile(given, cwd, label) : fromGitRef(given, specPath, cwd, label);
}
