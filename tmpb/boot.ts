import { ServerHandle } from '../src/targets/child-target.ts';
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const h = await ServerHandle.start({ seed: 1 } as never);
  const t1 = performance.now();
  await h.stop();
  console.log(`boot ${(t1 - t).toFixed(0)} ms, stop ${(performance.now() - t1).toFixed(0)} ms`);
}
