// Lists of objects: removing an entry renumbers what was asked in the
// entries after it, so a resumed or revisited list asks nothing twice.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../../src/forms/schema.js';
import { allFields } from '../../../src/forms/questions.js';
import { removeEntry } from '../../../src/forms/groups.js';

const FIX = join(import.meta.dirname, '../../fixtures/forms');
const form = loadSchema(JSON.parse(readFileSync(join(FIX, 'required-empty-2020.json'), 'utf8')));

describe('removeEntry', () => {
  it('removes the entry and moves the asked marks of later entries up by one', () => {
    const doc = { profile: { children: [{ nickname: 'A' }, { nickname: 'B' }, { nickname: 'C' }] } };
    const group = allFields(form, doc).find((f) => f.id === 'profile.children')!;
    const w = { doc, asked: new Set(['profile.name', 'profile.children', 'profile.children.0.nickname', 'profile.children.1.nickname', 'profile.children.2.nickname', 'profile.childrenX']) };
    removeEntry(w, group, 1);
    expect(doc.profile.children).toEqual([{ nickname: 'A' }, { nickname: 'C' }]);
    expect([...w.asked].sort()).toEqual(['profile.children', 'profile.children.0.nickname', 'profile.children.1.nickname', 'profile.childrenX', 'profile.name']);
    removeEntry(w, group, 1);
    expect([...w.asked].filter((a) => a.startsWith('profile.children.'))).toEqual(['profile.children.0.nickname']);
  });
});
