// A fresh `git clone` of this repository as it is on disk: HEAD, plus the working tree's uncommitted changes and
// new (not ignored) files, so a test that installs from a checkout sees the files being changed, not the last
// commit. No node_modules, dist/ or anything else .gitignore keeps out: what a CI checkout has.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO } from './cli.ts';

const git = (args: string[], cwd: string, input?: string) =>
  execFileSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });

export function cloneWorkingTree(into: string): string {
  const head = git(['rev-parse', 'HEAD'], REPO).trim();
  git(['clone', '--quiet', '--no-checkout', REPO, into], REPO);
  git(['checkout', '--quiet', '--detach', head], into);
  const changes = git(['diff', 'HEAD', '--binary'], REPO);
  if (changes) git(['apply', '--binary', '-'], into, changes);
  const untracked = git(['ls-files', '--others', '--exclude-standard', '-z'], REPO).split('\0').filter(Boolean);
  for (const file of untracked) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(REPO, file), join(into, file));
  }
  return into;
}
