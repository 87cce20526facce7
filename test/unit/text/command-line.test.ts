import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { partnerCommand, q } from '../../../src/text/command-line.js';

describe('q', () => {
  it('leaves safe words alone and quotes the rest so a shell reads them back unchanged', () => {
    expect(q('Acme_Ltd-2.csv')).toBe('Acme_Ltd-2.csv');
    expect(q('dir/rows.csv')).toBe('dir/rows.csv');
    for (const s of ['Acme Deutschland GmbH', 'a"b', 'back\\slash', '$HOME', '`id`', "it's"]) {
      expect(execFileSync('sh', ['-c', `printf %s ${q(s)}`], { encoding: 'utf8' })).toBe(s);
    }
  });
});

describe('partnerCommand', () => {
  const none = { sandbox: false, profile: undefined, baseUrl: undefined };
  it('repeats the flags that chose the server', () => {
    expect(partnerCommand(none, 'gp create --resume')).toBe('partner gp create --resume');
    expect(partnerCommand({ ...none, sandbox: true }, 'gp create --resume')).toBe('partner --sandbox gp create --resume');
    expect(partnerCommand({ ...none, profile: 'staging eu' }, 'x')).toBe('partner --profile "staging eu" x');
    expect(partnerCommand({ ...none, profile: 'p', baseUrl: 'https://api.example.com/v2' }, 'x')).toBe('partner --profile p --base-url "https://api.example.com/v2" x');
  });
});
