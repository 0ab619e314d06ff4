// --impl-secret: parsed into values (for the drivers' environment) and sources (for reproduce commands); a bad pair says how to fix it.
import { describe, expect, it } from 'vitest';
import { parseImplSecrets, publicArgv } from '../../bin/secret-flags.js';
import { implSecretsEnv, takeImplSecrets } from '../../harness/secrets/impl-secrets.js';
import { maskText } from '../../shared/secrets/mask.js';

describe('--impl-secret', () => {
  it('takes a literal value or one from the environment, registers both for masking, and rewrites argv to name variables only', () => {
    const parsed = parseImplSecrets(['token=literal-token-value', 'key=env:MY_KEY'], ['defect'], { MY_KEY: 'from-the-env-1234' });
    expect(parsed).toEqual({ values: { token: 'literal-token-value', key: 'from-the-env-1234' }, sources: { token: 'EJC_IMPL_SECRET_TOKEN', key: 'MY_KEY' } });
    expect(maskText('a literal-token-value b from-the-env-1234')).toBe('a [masked impl-secret:token] b [masked impl-secret:key]');
    const argv = ['run', '--impl', 'a.js', '--impl-secret', 'token=literal-token-value', '--impl-secret=key=env:MY_KEY', '--seed', '2'];
    expect(publicArgv(argv, parsed.sources)).toEqual(['run', '--impl', 'a.js', '--impl-secret', 'token=env:EJC_IMPL_SECRET_TOKEN', '--impl-secret=key=env:MY_KEY', '--seed', '2']);
  });

  it.each([
    [['novalue'], [], /must look like key=value or key=env:VARIABLE/],
    [['a=short'], [], /at least 8 to be masked/],
    [['a=long-enough-1', 'a=long-enough-2'], [], /given twice/],
    [['defect=long-enough-1'], ['defect'], /both as --impl-option and as --impl-secret/],
    [['a=env:UNSET_FOR_THIS_TEST'], [], /environment variable UNSET_FOR_THIS_TEST is not set/],
  ])('refuses %j', (pairs, publicKeys, message) => {
    expect(() => parseImplSecrets(pairs, publicKeys, {})).toThrow(message);
  });

  it('reaches the host driver through one environment variable that the host removes before loading the adapter', () => {
    const env: NodeJS.ProcessEnv = { ...implSecretsEnv({ token: 'literal-token-value' }), OTHER: 'x' };
    expect(takeImplSecrets(env)).toEqual({ token: 'literal-token-value' });
    expect(env).toEqual({ OTHER: 'x' });
    expect(implSecretsEnv({})).toBeUndefined();
    expect(() => takeImplSecrets({ EJC_IMPL_SECRETS: '[1]' })).toThrow(/JSON object of strings/);
  });
});
