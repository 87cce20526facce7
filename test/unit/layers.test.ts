// The layers of src/ (docs/ARCHITECTURE.md, "Layers"), checked on every
// import. Each folder and top-level file of src/ is a unit; LAYERS lists the
// units from the top (the entry points) to the bottom (the foundation). A
// file may import its own unit and units listed AFTER its own, never one
// listed before it: the order is the whole rule (within a layer too), so two
// units can never import each other. Every kind of import counts: `import`,
// `import type`, `export … from`, `import()`, `typeof import()` and require().
// Nothing in src/ reaches into bin/ (an import or a path such as
// `new URL('../bin/…', import.meta.url)`).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** Top to bottom. A unit imports only units below it. */
export const LAYERS: Record<string, string[]> = {
  // The processes' entry points: argv in, an exit code out.
  entry: ['launcher/', 'sea-entry.ts', 'sea-cli.ts', 'cli.ts', 'help-entry.ts', 'program.ts', 'command-worker.ts'],
  // What a person or an agent talks to: help, the commands, the MCP server, shell completion.
  'front ends': ['worker-rules.ts', 'help-json.ts', 'manual.ts', 'command-tree.ts', 'help.ts', 'help-topics.ts', 'commands/', 'mcp/', 'completion/', 'flags.ts', 'command.ts'],
  // The one factory: builds what a command touches from the services below.
  context: ['context.ts'],
  // The work, each service taking narrow interfaces (never the context).
  services: ['sandbox/', 'webhooks/', 'forms/', 'changes/', 'output/', 'audit/', 'config/', 'api/'],
  // Plain helpers that know nothing of partner's services.
  foundation: ['help-words.ts', 'worker-rule.ts', 'text/', 'run-basics.ts', 'io.ts', 'json/', 'input.ts', 'options.ts', 'safe-keys.ts', 'concurrency.ts', 'pid-lock.ts', 'process-probe.ts', 'runtime/', 'version.ts', 'errors.ts'],
};

const ORDER = Object.values(LAYERS).flat();
const rank = (unit: string) => ORDER.indexOf(unit);

/** The unit of a path relative to src/: its top folder (`api/`) or the file itself (`cli.ts`). */
function unitOf(rel: string): string {
  const [first, ...rest] = rel.split(sep);
  return rest.length ? `${first}/` : first!;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every module a file names: static, type-only, re-exported, dynamic, `typeof import()` and require(). */
function moduleSpecifiers(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const literal = (n: ts.Node | undefined) => {
    if (n && ts.isStringLiteralLike(n)) found.push(n.text);
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) literal(n.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) literal(n.moduleReference.expression);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) literal(n.argument.literal);
    else if (ts.isCallExpression(n) && (n.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(n.expression) && n.expression.text === 'require'))) literal(n.arguments[0]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** Relative paths in any string of the file (`new URL('../bin/x.js', import.meta.url)`). */
function relativePaths(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteralLike(n) && /^\.\.?\//.test(n.text)) found.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

export interface Violation {
  file: string;
  imports: string;
  rule: string;
}

/** Every import of src/ that breaks the layers, or reaches outside src/ into bin/. */
export function layerViolations(src = SRC): Violation[] {
  const out: Violation[] = [];
  for (const path of sourceFiles(src)) {
    const file = relative(src, path);
    const from = unitOf(file);
    for (const spec of new Set([...moduleSpecifiers(path), ...relativePaths(path)])) {
      if (!spec.startsWith('.')) continue;
      const target = relative(src, resolve(dirname(path), spec));
      if (target.startsWith('..')) {
        if (relative(dirname(src), resolve(dirname(path), spec)).split(sep)[0] === 'bin') out.push({ file, imports: spec, rule: `${from} -> bin/` });
        continue;
      }
      const to = unitOf(target.replace(/\.js$/, '.ts'));
      if (to === from) continue;
      if (rank(to) === -1) continue; // not a module (a data file); a new unit is caught below
      if (rank(to) < rank(from)) out.push({ file, imports: spec, rule: `${from} -> ${to}` });
    }
  }
  return out;
}


describe('the layers of src/', () => {
  it('place every folder and top-level file of src/', () => {
    const units = readdirSync(SRC, { withFileTypes: true }).map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).filter((u) => u.endsWith('/') || u.endsWith('.ts'));
    expect(units.filter((u) => rank(u) === -1), 'add these to LAYERS (and to docs/ARCHITECTURE.md)').toEqual([]);
    expect(ORDER.filter((u) => !units.includes(u)), 'gone from src/: remove them from LAYERS').toEqual([]);
  });

  const found = layerViolations();

  it('hold: no file imports a unit above its own, and nothing imports bin/', () => {
    expect(found.map((v) => `${v.file} imports ${v.imports} (${v.rule})`)).toEqual([]);
  });
});

describe('the layer check', () => {
  it('finds every kind of upward import, and a path into bin/', () => {
    const root = mkdtempSync(join(tmpdir(), 'partner-layers-'));
    try {
      const src = join(root, 'src');
      const put = (file: string, text: string) => {
        mkdirSync(dirname(join(src, file)), { recursive: true });
        writeFileSync(join(src, file), text);
      };
      put('errors.ts', "import type { Context } from './context.js';\nexport type { Context };\n");
      put('text/a.ts', "export const load = () => import('../output/pager.js');\n");
      put('json/b.ts', "export type T = typeof import('../config/paths.js');\n");
      put('io.ts', "export * from './api/http.js';\nimport fs = require('./sandbox/server.js');\n");
      put('config/c.ts', "import { x } from './d.js';\nexport const worker = new URL('../../bin/partner.js', import.meta.url);\n");
      put('program.ts', "import { run } from './commands/index.js';\nimport { z } from './text/a.js';\n");
      const rules = layerViolations(src).map((v) => `${v.file.split(sep).join('/')}: ${v.rule}`);
      expect(rules.sort()).toEqual(['config/c.ts: config/ -> bin/', 'errors.ts: errors.ts -> context.ts', 'io.ts: io.ts -> api/', 'io.ts: io.ts -> sandbox/', 'json/b.ts: json/ -> config/', 'text/a.ts: text/ -> output/']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
