import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * What a built ES module loads when it runs, followed through every relative import: static
 * imports and re-exports, `import()` and `require()` with a literal (also
 * `createRequire(...)('x')`), as the lint makes every load in source literal. Type-only
 * imports are gone from the built JavaScript, so what is found is what runs.
 */
export interface ImportClosure {
  /** Absolute paths of the files reached, the entry included. */
  readonly files: ReadonlySet<string>;
  /** Bare specifiers (packages and `node:` builtins) any of them loads. */
  readonly packages: ReadonlySet<string>;
  /** Relative specifiers that name no file (`importer -> specifier`). */
  readonly unresolved: readonly string[];
}

function literal(node: ts.Node | undefined): string | null {
  return node !== undefined && ts.isStringLiteralLike(node) ? node.text : null;
}

/** The module specifiers one file loads. */
export function loadedSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
      const specifier = literal(node.moduleSpecifier);
      if (specifier !== null) found.push(specifier);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const loads =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        // createRequire(import.meta.url)('pino')
        (ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'createRequire');
      const specifier = loads ? literal(node.arguments[0]) : null;
      if (specifier !== null) found.push(specifier);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function importClosure(entry: string): ImportClosure {
  const files = new Set<string>();
  const packages = new Set<string>();
  const unresolved: string[] = [];
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of loadedSpecifiers(file)) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const target = path.resolve(path.dirname(file), specifier);
      if (existsSync(target)) queue.push(target);
      else unresolved.push(`${file} -> ${specifier}`);
    }
  }
  return { files, packages, unresolved };
}

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`), or null for a builtin. */
export function packageName(specifier: string): string | null {
  if (specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}
