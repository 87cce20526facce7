// The checker of the no-split-words test (test/helpers/word-breaks.ts) finds
// what it must: a word cut by the terminal's edge, a line break put inside a
// word or a backticked command, text lost; and lets pass a unit that is
// wider than its row and stands whole at its start.
import { describe, expect, it } from 'vitest';
import { brokenWords } from '../../helpers/word-breaks.js';
import { wrapMessage } from '../../../src/text/wrap.js';

const HINT = 'Check the code with `partner employees list --employee-code CODE`, or pass the employee id (a UUID).';

describe('brokenWords', () => {
  it("finds the issue's break: a line longer than 80 columns cut by the terminal (`…or pass the e` / `mployee id`)", () => {
    const problems = brokenWords(HINT, HINT, 80);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/pass the e\|mployee/);
  });

  it('passes the same text broken at spaces, at 40, 80 and 120 columns', () => {
    for (const w of [40, 80, 120]) expect(brokenWords(wrapMessage(HINT, w), HINT, w)).toEqual([]);
  });

  it('finds a line break put inside a word, and one inside a backticked command', () => {
    expect(brokenWords('Check the co\nde with it', 'Check the code with it', 80)).toHaveLength(1);
    expect(brokenWords('Run `partner employees\nlist` now', 'Run `partner employees list` now', 80)).toHaveLength(1);
  });

  it('finds lost or changed text', () => {
    expect(brokenWords('Check the code', 'Check the code with it', 80)[0]).toMatch(/differs/);
  });

  it('lets a unit wider than its row stand whole at the start of it, not after other words', () => {
    const url = `http://127.0.0.1:40000/${'a'.repeat(40)}`;
    expect(brokenWords(`Listening on\n  ${url}`, `Listening on ${url}`, 40)).toEqual([]);
    expect(brokenWords(`Listening on ${url}`, `Listening on ${url}`, 40)).toHaveLength(1);
    // A suggested command line is one unit: kept whole, it may be longer than the terminal.
    const cmd = '  partner employees list --all --fields employeeCode,fullName,workEmail,status';
    expect(brokenWords(`Look for them with:\n${cmd}`, `Look for them with:\n${cmd}`, 40)).toEqual([]);
  });

  it('reads digits and ids as equal across runs (ports, correlation ids)', () => {
    expect(brokenWords('on port 40123 id 538b2ab1-4933-4eee-800d-561642d6db9f', 'on port 38651 id d4d6cb3e-2ef8-4490-9fbb-fbe3d7627a2f', 80)).toEqual([]);
  });
});
