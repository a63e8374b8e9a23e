// One pass of the conformance suite's server scenarios against a URL, read back from the results it writes: each
// scenario's checks.json lists checks with a status (SUCCESS, FAILURE, WARNING, INFO, SKIPPED); a scenario that
// wrote none (the suite crashed or timed out under a fault) counts as one failed check. Named scenarios run one
// suite process each, so one that hangs under a fault times out alone and the others still run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceTool } from './tool.ts';

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
  /** The first failed check's message, for the table's evidence. */
  firstFailure?: string;
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** The suite's result folders are `server-<scenario>-<ISO time>`. */
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

export async function runScenarios(
  tool: ConformanceTool,
  url: string,
  outDir: string,
  scenarios: readonly string[],
  timeoutMs: number,
): Promise<ScenarioResult[]> {
  mkdirSync(outDir, { recursive: true });
  const timedOut = new Set<string>();
  if (scenarios.length === 0) await suite(tool, ['server', '--url', url, '-o', outDir], timeoutMs);
  for (const scenario of scenarios) {
    if (!(await suite(tool, ['server', '--url', url, '-o', outDir, '--scenario', scenario], timeoutMs)))
      timedOut.add(scenario);
  }
  const results = new Map<string, ScenarioResult>();
  for (const name of readdirSync(outDir)) {
    const scenario = RESULT_DIR.exec(name)?.[1];
    if (!scenario) continue;
    const file = join(outDir, name, 'checks.json');
    const checks: Check[] = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
    const failures = checks.filter((c) => c.status === 'FAILURE');
    results.set(scenario, {
      scenario,
      passed: checks.filter((c) => c.status === 'SUCCESS').length,
      failed: checks.length === 0 ? 1 : failures.length,
      warnings: checks.filter((c) => c.status === 'WARNING').length,
      ...((failures[0] || checks.length === 0) && {
        firstFailure: failures[0]?.errorMessage ?? (checks.length === 0 ? 'no result written' : failures[0].id),
      }),
    });
  }
  for (const scenario of scenarios)
    if (!results.has(scenario))
      results.set(scenario, { scenario, passed: 0, failed: 1, warnings: 0, firstFailure: 'no result written' });
  return [...results.values()].sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/**
 * Runs the suite's CLI; false when it was stopped for taking longer than `timeoutMs`. Its own exit code says only
 * whether a check failed, which the results tell better.
 */
function suite(tool: ConformanceTool, args: string[], timeoutMs: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.node, [tool.bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // A crash before any scenario ran is a tool problem, not a result.
      if (code !== 0 && code !== 1 && signal === null)
        reject(new Error(`conformance suite exited ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`));
      else resolve(!late);
    });
  });
}
