// The default of every flag reads the same in the manual and in `help -o json`
// (one reading: flagDefaultText), and the JSON's typed default agrees with it.
import { describe, expect, it } from 'vitest';
import { isGroup, type CommandDef } from '../../../src/command.js';
import { TOP_LEVEL } from '../../../src/commands/index.js';
import { helpDocument } from '../../../src/help-json.js';
import { flagFacts } from '../../../src/manual.js';

const leaves: [string, CommandDef][] = TOP_LEVEL.flatMap((t) => (isGroup(t) ? t.commands.map((c) => [`${t.name} ${c.name}`, c] as [string, CommandDef]) : [[t.name, t] as [string, CommandDef]]));
const doc = helpDocument(TOP_LEVEL);

describe('flag defaults', () => {
  it('the manual and help -o json state the same default for every flag of every command', () => {
    let compared = 0;
    for (const [name, def] of leaves) {
      const cmd = doc.commands.find((c) => c.name === name);
      if (!cmd) continue;
      for (const [key, flag] of Object.entries(def.flags ?? {})) {
        const facts = flagFacts(key, flag as never);
        const json = cmd.flags.find((f) => facts.term.endsWith(f.name))!;
        expect(json.defaultText, `${name} ${json.name}`).toBe(facts.default ?? null);
        // A typed default, when there is one, is what the text says.
        if (typeof json.default === 'number' && /^\d/.test(json.defaultText ?? '')) expect(String(json.default), `${name} ${json.name}`).toBe(json.defaultText);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('a default the command applies is typed in the JSON (it was null)', () => {
    const flag = (cmd: string, f: string) => doc.commands.find((c) => c.name === cmd)!.flags.find((x) => x.name === f)!;
    expect(flag('employees list', '--concurrency')).toMatchObject({ default: 8, defaultText: '8' });
    expect(flag('webhook listen', '--forward-concurrency')).toMatchObject({ default: 64, defaultText: '64' });
    expect(flag('employees list', '--page-size')).toMatchObject({ default: null, defaultText: '20; 100 with --all' });
    expect(flag('employees list', '--all')).toMatchObject({ default: false, defaultText: 'off' });
  });
});
