// (c) Two calls with one key at once: one effect.
import { describe, effectsOf, type IdempotencyCheck, keyedWriteMissing, withKey } from './tool-under-test.ts';

export const concurrent: IdempotencyCheck = {
  name: 'concurrent-same-key',
  title: 'two concurrent calls with one key: one effect',
  async run(tool) {
    const missing = keyedWriteMissing(tool);
    if (missing) return missing;
    const args = withKey(tool, tool.args(4), tool.freshKey());
    let answers: string[] = [];
    const effects = await effectsOf(tool, async () => {
      answers = (await Promise.all([tool.call(args), tool.call(args)])).map(describe);
    });
    if (typeof effects === 'string') return { verdict: 'n/a', evidence: effects };
    return { verdict: effects === 1 ? 'pass' : 'fail', evidence: `${effects} effect(s); ${answers.join(' / ')}` };
  },
};
