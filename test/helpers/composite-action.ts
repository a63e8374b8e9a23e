// Runs a composite action's steps (action.yml) as a GitHub runner would, on this machine: each `run:` step as a
// bash script (`bash --noprofile --norc -eo pipefail`, GitHub's bash shell), with its `env:` and
// `working-directory:`, the `${{ }}` expressions filled from the inputs (declared defaults, then the caller's),
// `github.action_path` and the outputs earlier steps wrote to $GITHUB_OUTPUT, and `if:` decided by the step
// status functions. `uses:` steps (setup-node, upload-artifact) are other actions: recorded, not run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runCommand } from './run-command.ts';

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

interface StepResult {
  name: string;
  ran: boolean;
  uses?: string;
  code?: number | null;
  stdout?: string;
  stderr?: string;
}

interface ActionResult {
  steps: StepResult[];
  outputs: Record<string, string>;
  /** What the steps appended to $GITHUB_STEP_SUMMARY. */
  summary: string;
  failed: boolean;
}

interface RunActionOptions {
  /** The folder holding action.yml (github.action_path). */
  actionPath: string;
  /** The caller's checkout (github.workspace): where steps without working-directory run. */
  workspace: string;
  /** A folder for $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY and the step scripts. */
  temp: string;
  inputs?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
  stepTimeoutMs?: number;
}

export async function runCompositeAction(options: RunActionOptions): Promise<ActionResult> {
  const action = parse(readFileSync(join(options.actionPath, 'action.yml'), 'utf8')) as Action;
  if (action.runs.using !== 'composite') throw new Error(`not a composite action: ${action.runs.using}`);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) inputs[name] = options.inputs?.[name] ?? spec.default ?? '';
  for (const name of Object.keys(options.inputs ?? {})) {
    if (!(name in action.inputs)) throw new Error(`action.yml declares no input ${name}`);
  }
  const stepOutputs: Record<string, Record<string, string>> = {};
  const summaryFile = join(options.temp, 'step-summary.md');
  writeFileSync(summaryFile, '');
  let failed = false;

  const context = (path: string): string => {
    const [scope, ...rest] = path.split('.');
    if (scope === 'inputs') return inputs[rest.join('.')] ?? '';
    if (scope === 'github' && rest[0] === 'action_path') return options.actionPath;
    if (scope === 'github' && rest[0] === 'workspace') return options.workspace;
    if (scope === 'steps' && rest[1] === 'outputs') return stepOutputs[rest[0]]?.[rest.slice(2).join('.')] ?? '';
    throw new Error(`expression context ${path} is not known to this runner: teach test/helpers/composite-action.ts`);
  };
  const evaluate = (expression: string): string | boolean => evaluateExpression(expression, context, failed);
  const fill = (text: string): string => text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => String(evaluate(e)));

  const results: StepResult[] = [];
  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${index + 1}`;
    const condition = step.if === undefined ? 'success()' : step.if.replace(/^\$\{\{\s*|\s*\}\}$/g, '');
    if (evaluate(condition) !== true) {
      results.push({ name, ran: false, uses: step.uses });
      continue;
    }
    if (step.uses !== undefined) {
      results.push({ name, ran: false, uses: step.uses });
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`${name}: shell ${step.shell} (this runner knows bash)`);
    const outputFile = join(options.temp, `output-${index}`);
    writeFileSync(outputFile, '');
    const script = join(options.temp, `step-${index}.sh`);
    writeFileSync(script, fill(step.run ?? ''));
    const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, GITHUB_OUTPUT: outputFile };
    env.GITHUB_STEP_SUMMARY = summaryFile;
    for (const [key, value] of Object.entries(step.env ?? {})) env[key] = fill(String(value));
    const cwd = step['working-directory'] ? fill(step['working-directory']) : options.workspace;
    const child = await runCommand('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd,
      env,
      timeoutMs: options.stepTimeoutMs ?? 600_000,
    });
    if (step.id) stepOutputs[step.id] = readOutputs(outputFile);
    results.push({ name, ran: true, ...child });
    if (child.code !== 0) failed = true;
  }

  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs ?? {})) outputs[name] = fill(spec.value);
  return { steps: results, outputs, summary: readFileSync(summaryFile, 'utf8'), failed };
}

/** `key=value` lines of a $GITHUB_OUTPUT file (the heredoc form `key<<EOF` is not used by the action). */
function readOutputs(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const outputs: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return outputs;
}

/**
 * The part of GitHub's expression language action.yml uses: `a && b`, `a || b`, `x == 'y'`, `x != 'y'`,
 * 'literals', context paths and always() / success() / failure(). Anything else throws, so the runner never
 * guesses what a new condition means.
 */
function evaluateExpression(expression: string, context: (path: string) => string, failed: boolean): string | boolean {
  const text = expression.trim();
  if (text.includes('||')) return text.split('||').some((part) => evaluateExpression(part, context, failed) === true);
  if (text.includes('&&')) return text.split('&&').every((part) => truthy(evaluateExpression(part, context, failed)));
  const comparison = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(text);
  if (comparison) {
    const left = String(evaluateExpression(comparison[1], context, failed)).toLowerCase();
    const right = String(evaluateExpression(comparison[3], context, failed)).toLowerCase();
    return comparison[2] === '==' ? left === right : left !== right;
  }
  if (text === 'always()') return true;
  if (text === 'success()') return !failed;
  if (text === 'failure()') return failed;
  const literal = /^'(.*)'$/.exec(text);
  if (literal) return literal[1].replace(/''/g, "'");
  if (/^[a-z_][\w.-]*$/i.test(text)) return context(text);
  throw new Error(`expression "${text}" is not known to this runner: teach test/helpers/composite-action.ts`);
}

function truthy(value: string | boolean): boolean {
  return value !== false && value !== '';
}
