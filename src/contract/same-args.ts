// (a) The same key with the same arguments twice: one effect, and the second answer is the first one.
import { describe, effectsOf, type IdempotencyCheck, keyedWriteMissing, withKey } from './tool-under-test.ts';

export const sameArgs: IdempotencyCheck = {
  name: 'same-key-same-args',
  title: 'same key, same arguments twice: one effect, the same result',
  async run(tool) {
    const missing = keyedWriteMissing(tool);
    if (missing) return missing;
    const args = withKey(tool, tool.args(1), tool.freshKey());
    const answers: string[] = [];
    const effects = await effectsOf(tool, async () => {
      for (const _ of [1, 2]) answers.push(describe(await tool.call(args)));
    });
    if (typeof effects === 'string') return { verdict: 'n/a', evidence: effects };
    const same = answers[0] === answers[1];
    const evidence = `${effects} effect(s); results ${same ? 'equal' : `differ: ${answers.join(' / ')}`}`;
    return { verdict: effects === 1 && same && answers[0].startsWith('result') ? 'pass' : 'fail', evidence };
  },
};
