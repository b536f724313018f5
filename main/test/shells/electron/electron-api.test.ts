import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cli-process.js';

/**
 * The installed Electron against what the shell uses. The compiler checks the methods and
 * properties (load-electron.ts returns Electron's own module as ElectronModule); event names
 * it cannot check, since every Electron emitter also takes any string, so this test reads them
 * from electron-types.ts (`on(event: '...')`) and looks for each in electron.d.ts on the
 * Electron class it is for, or a class that one extends.
 */
const ELECTRON_DTS = path.join(REPO_ROOT, 'node_modules/electron/electron.d.ts');
const SHELL_TYPES = path.join(REPO_ROOT, 'main/src/shells/electron/electron-types.ts');

/** Which Electron class each of electron-types.ts's shapes stands for. */
const CLASS_OF: Readonly<Record<string, string>> = { WebContentsLike: 'WebContents', BrowserWindowLike: 'BrowserWindow', AppLike: 'App', Tray: 'Tray', Notification: 'Notification' };

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The string literals of the first parameter of every `on` method, by the name of the interface or property around it. */
function listenedEvents(source: ts.SourceFile): Map<string, Set<string>> {
  const events = new Map<string, Set<string>>();
  const visit = (node: ts.Node, owner: string | null): void => {
    const name = ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node) || ts.isPropertySignature(node) ? (node.name?.getText(source) ?? owner) : owner;
    if ((ts.isMethodSignature(node) || ts.isMethodDeclaration(node)) && node.name.getText(source) === 'on' && name !== null) {
      const type = node.parameters[0]?.type;
      const literals = type === undefined ? [] : ts.isUnionTypeNode(type) ? type.types : [type];
      for (const literal of literals) {
        if (ts.isLiteralTypeNode(literal) && ts.isStringLiteral(literal.literal)) {
          events.set(name, (events.get(name) ?? new Set()).add(literal.literal.text));
        }
      }
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(source, null);
  return events;
}

/** The class (or interface) a declaration in electron.d.ts extends, by name. */
function parents(source: ts.SourceFile): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name !== undefined) {
      const parent = node.heritageClauses?.[0]?.types[0]?.expression.getText(source);
      if (parent !== undefined) found.set(node.name.text, parent);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the installed Electron', () => {
  it('is the release package.json pins', () => {
    const pinned = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['electron'];
    const installed = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
    expect(installed).toBe(pinned);
    expect(readFileSync(ELECTRON_DTS, 'utf8')).toContain(`// Type definitions for Electron ${installed}`);
  });

  it('emits every event the shell listens for, on the object it listens on', () => {
    const electron = parse(ELECTRON_DTS);
    const declared = listenedEvents(electron);
    const extendsOf = parents(electron);
    const used = listenedEvents(parse(SHELL_TYPES));
    expect([...used.keys()].filter((owner) => CLASS_OF[owner] === undefined)).toEqual([]);
    const missing: string[] = [];
    for (const [owner, events] of used) {
      for (const event of events) {
        let found = false;
        for (let cls: string | undefined = CLASS_OF[owner]; cls !== undefined && !found; cls = extendsOf.get(cls)) found = declared.get(cls)?.has(event) === true;
        if (!found) missing.push(`${CLASS_OF[owner]}: ${event}`);
      }
    }
    expect(missing).toEqual([]);
    expect([...used.values()].reduce((count, events) => count + events.size, 0)).toBeGreaterThan(15);
  });
});
