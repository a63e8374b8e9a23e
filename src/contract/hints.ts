// (e) The tool's annotations against what repeating one identical call did: hintLie (measure/hint-honesty.ts), the
// rule runs use too.
import { hintLie } from '../measure/hint-honesty.ts';
import { effectsOf, type IdempotencyCheck, withKey } from './tool-under-test.ts';

export const hints: IdempotencyCheck = {
  name: 'hints-honest',
  title: 'readOnlyHint / idempotentHint hold for a repeated identical call',
  async run(tool) {
    const claims = (['readOnlyHint', 'idempotentHint'] as const).filter((h) => tool.hints?.[h] === true);
    if (claims.length === 0) return { verdict: 'n/a', evidence: 'claims neither readOnlyHint nor idempotentHint' };
    const args = withKey(tool, tool.args(6), tool.freshKey());
    const effects = await effectsOf(tool, async () => {
      for (const _ of [1, 2]) await tool.call(args);
    });
    if (typeof effects === 'string') return { verdict: 'n/a', evidence: effects };
    const lie = hintLie(tool.hints, 2, effects);
    const evidence = `claims ${claims.join(', ')}; 2 identical calls made ${effects} effect(s)`;
    return lie ? { verdict: 'fail', evidence: `lying ${lie}: ${evidence}` } : { verdict: 'pass', evidence };
  },
};
