// Each target kind's file declares what it can do; the table below is what the one switch on target.kind said
// before the kinds were split into files, so the split changed no capability.
import { describe, expect, it } from 'vitest';
import { unsupportedFault } from '../../../src/under-test/capabilities.ts';
import { goesOverHttp, kindsTaking, targetKind, targetSchema } from '../../../src/under-test/kinds/index.ts';
import type { TargetShape } from '../../../src/under-test/kinds/kind.ts';

const CASES: [TargetShape, string[]][] = [
  [{ kind: 'reference' }, ['control', 'restart', 'behaviour', 'network', 'http-edge']],
  [{ kind: 'reference-stdio' }, ['control', 'restart', 'stdio-edge']],
  [{ kind: 'url' }, ['network', 'http-edge']],
  [{ kind: 'url', admin: 'http://127.0.0.1:3002' }, ['network', 'http-edge', 'control', 'behaviour']],
  [{ kind: 'stdio' }, ['restart', 'stdio-edge']],
  [{ kind: 'stdio', intercept: true }, ['restart', 'stdio-edge', 'control']],
  [{ kind: 'stdio', over: 'http' }, ['restart', 'network', 'http-edge']],
  [{ kind: 'cassette' }, ['restart', 'stdio-edge']],
  [{ kind: 'cassette', over: 'http' }, ['restart', 'network', 'http-edge']],
  [{ kind: 'http' }, ['network', 'http-edge']],
];

describe('target kinds', () => {
  it('say which effect sources they take and which can go over the HTTP bridge, as profile checks and idempotency ask', () => {
    expect(kindsTaking('read-back')).toBe('stdio, http or cassette');
    expect(kindsTaking('intercept')).toBe('stdio');
    const bridged = ['reference', 'reference-stdio', 'url', 'stdio', 'http', 'cassette'].filter((kind) =>
      goesOverHttp({ kind }),
    );
    expect(bridged).toEqual(['stdio', 'cassette']);
  });

  it("say which speak the pairing's era and offer the credential refresh, as the run and the resilient policy ask", () => {
    const kinds = ['reference', 'reference-stdio', 'url', 'stdio', 'http', 'cassette'];
    expect(kinds.filter((kind) => targetKind(kind)?.speaksPairingEra)).toEqual(['reference']);
    expect(kinds.filter((kind) => targetKind(kind)?.offersCredentialRefresh)).toEqual(['reference']);
    expect(
      unsupportedFault({ kind: 'url', admin: 'http://127.0.0.1:3002' }, { kind: 'crash', needs: ['restart'] }),
    ).toMatch(/target kind url cannot/);
  });

  it.each(CASES)('%j can do exactly what it declares', (target, can) => {
    expect([...(targetKind(target.kind)?.capabilities(target) ?? [])].sort()).toEqual([...can].sort());
  });

  it('refuses a fault that needs what the kind cannot do, and names both', () => {
    expect(unsupportedFault({ kind: 'url' }, { kind: 'dependency-500', needs: ['control'] })).toBe(
      'fault kind dependency-500 needs a target with a control channel (IPC or target.admin); target kind url without admin cannot take it',
    );
    expect(unsupportedFault({ kind: 'reference' }, { kind: 'crash', needs: ['restart'] })).toBeUndefined();
  });

  it('knows no capability of a kind no file declares', () => {
    expect(targetKind('ftp')).toBeUndefined();
    expect(unsupportedFault({ kind: 'ftp' }, { kind: 'crash', needs: ['restart'] })).toMatch(/target kind ftp cannot/);
  });

  it('derives the profile target union from the kinds: each declared kind parses, another is refused', () => {
    const parse = (target: unknown) => targetSchema.safeParse(target).success;
    expect(parse({ kind: 'reference' })).toBe(true);
    expect(parse({ kind: 'http', url: 'http://127.0.0.1:1/mcp' })).toBe(true);
    expect(parse({ kind: 'cassette', file: 'c.jsonl' })).toBe(true);
    expect(parse({ kind: 'ftp' })).toBe(false);
  });
});
