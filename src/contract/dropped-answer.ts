// (d) A retry after the answer was lost after commit (edge drop-after-commit on the wire): one effect, and the
// retry answers.
import {
  type DropWindow,
  describe,
  effectsOf,
  type IdempotencyCheck,
  keyedWriteMissing,
  withKey,
} from './tool-under-test.ts';

export const droppedAnswer: IdempotencyCheck = {
  name: 'retry-after-dropped-answer',
  title: 'a retry after the answer was lost after commit: one effect',
  async run(tool) {
    const missing = keyedWriteMissing(tool);
    if (missing) return missing;
    const args = withKey(tool, tool.args(5), tool.freshKey());
    let lost = '';
    let retry = '';
    let hits = 0;
    let drop: DropWindow | undefined;
    const effects = await effectsOf(tool, async () => {
      drop = await tool.dropAnswers();
      if (!drop) return;
      try {
        lost = describe(await tool.call(args));
        hits = await drop.hits();
      } finally {
        await drop.remove();
      }
      retry = describe(await tool.call(args));
    });
    if (!drop) return { verdict: 'n/a', evidence: 'the target has no HTTP edge for drop-after-commit to act on' };
    if (typeof effects === 'string') return { verdict: 'n/a', evidence: effects };
    const evidence = `drop-after-commit hits ${hits}; first call: ${lost}; retry: ${retry}; ${effects} effect(s)`;
    // The fault must have acted once, or nothing on the wire was tested.
    if (hits !== 1) return { verdict: 'fail', evidence: `the fault did not act once (${evidence})` };
    // A client that resumed the stream (an event store) got the answer: there was no retry to judge.
    if (!lost.startsWith('error'))
      return { verdict: 'n/a', evidence: `the client resumed the stream and got the answer (${evidence})` };
    return { verdict: effects === 1 && retry.startsWith('result') ? 'pass' : 'fail', evidence };
  },
};
