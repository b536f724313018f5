import { stepLine } from './scenario-report.js';
import type { ScenarioResult } from './scenario-runner.js';

/** Text and attribute values for XML 1.0: escaped, and characters XML cannot hold dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function testcase(result: ScenarioResult): string {
  const lines = result.steps.map(stepLine).join('\n');
  const open = `    <testcase name="${xmlEscape(result.name)}" classname="${xmlEscape(result.file)}" time="${seconds(result.ms)}">`;
  const failure = result.ok ? '' : `\n      <failure message="${xmlEscape(result.failure ?? 'failed')}" type="ScenarioStepFailed">${xmlEscape(lines)}</failure>`;
  return `${open}${failure}\n      <system-out>${xmlEscape(lines)}</system-out>\n    </testcase>`;
}

/**
 * JUnit XML: one testsuite per file (in the order given), one testcase per scenario; a failed
 * scenario's failure message names the step, and its body and system-out hold the step lines.
 */
export function junitXml(files: readonly string[], results: readonly ScenarioResult[]): string {
  const suites = files.map((file) => {
    const cases = results.filter((result) => result.file === file);
    const failures = cases.filter((result) => !result.ok).length;
    const time = cases.reduce((sum, result) => sum + result.ms, 0);
    return [
      `  <testsuite name="${xmlEscape(file)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${seconds(time)}">`,
      ...cases.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const failures = results.filter((result) => !result.ok).length;
  const time = results.reduce((sum, result) => sum + result.ms, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="companion scenarios" tests="${results.length}" failures="${failures}" errors="0" time="${seconds(time)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
