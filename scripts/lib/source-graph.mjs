// The source tree as TypeScript sees it: every relative import (type-only ones included) between
// files, folded into a folder graph, its cycles, and every function longer than a limit. Used by
// the architecture test that `npm test` runs.
import ts from 'typescript';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Every .ts/.tsx file under `root`, skipping tests and declaration files. */
export function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(root);
  return files.sort();
}

function parse(file) {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** Module specifiers of a file: imports, re-exports, dynamic import() and import types. */
export function specifiers(source) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveRelative(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Folder graph of one source root: folder (relative to root, '.' for the root) -> folders it imports from, with one example edge each. */
export function folderGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const from = relative(root, dirname(file)) || '.';
    if (!graph.has(from)) graph.set(from, new Map());
    for (const specifier of specifiers(parse(file))) {
      const target = resolveRelative(file, specifier);
      if (target === undefined || !target.startsWith(resolve(root) + sep)) continue;
      const to = relative(root, dirname(target)) || '.';
      if (to !== from && !graph.get(from).has(to)) graph.get(from).set(to, `${relative(root, file)} -> ${relative(root, target)}`);
    }
  }
  return graph;
}

/** Strongly connected components with more than one folder (Tarjan). Each cycle lists its folders and the edges inside it. */
export function folderCycles(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const connect = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indices.get(next)));
    }
    if (low.get(node) === indices.get(node)) {
      const members = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        members.push(member);
      } while (member !== node);
      if (members.length > 1) {
        const inside = new Set(members);
        const edges = members.flatMap((from) => [...(graph.get(from) ?? new Map())].filter(([to]) => inside.has(to)).map(([, example]) => example));
        cycles.push({ folders: members.sort(), edges: edges.sort() });
      }
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) connect(node);
  return cycles;
}

/** Functions (declarations, expressions, arrows, methods, accessors, constructors) spanning more than `limit` lines. */
export function longFunctions(files, limit) {
  const found = [];
  for (const file of files) {
    const source = parse(file);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > limit) found.push({ file, line: start + 1, lines, name: functionName(node) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

function functionName(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}
