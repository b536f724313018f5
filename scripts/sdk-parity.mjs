#!/usr/bin/env node
// Writes the Social SDK parity table into docs/sdk.md from rpc/client/parity/social-sdk-client-methods.json.
// `--check` writes nothing and exits 1 when the doc differs from what would be written.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentParity, PARITY_DATA, PARITY_DOC, REGENERATE, renderParity, replaceParity } from './lib/sdk-parity.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const docPath = path.join(root, PARITY_DOC);
const data = JSON.parse(readFileSync(path.join(root, PARITY_DATA), 'utf8'));
const doc = readFileSync(docPath, 'utf8');
const block = renderParity(data);

if (process.argv.includes('--check')) {
  if (currentParity(doc) !== block) {
    console.error(`${PARITY_DOC}'s parity table is out of date: run ${REGENERATE}`);
    process.exit(1);
  }
  console.log(`${PARITY_DOC}'s parity table is up to date`);
} else {
  writeFileSync(docPath, replaceParity(doc, block));
  console.log(`wrote the parity table of ${PARITY_DOC} (${data.methods.length} methods)`);
}
