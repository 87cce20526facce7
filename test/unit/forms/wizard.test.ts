import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema, type FormSchema } from '../../../src/forms/schema.js';
import { askAll, type Wizard } from '../../../src/forms/wizard.js';
import { fixIssues, review, reviewText } from '../../../src/forms/review.js';
import { buildBodies } from '../../../src/forms/bodies.js';
import { mapPromptError } from '../../../src/forms/prompter.js';
import { colors } from '../../../src/output/colors.js';
import { InterruptedError } from '../../../src/errors.js';
import { getSchema } from '../../../src/sandbox/forms.js';
import { withoutSecrets } from '../../../src/forms/secrets.js';
import { BACK, scripted, type Step } from './scripted.js';

const FIX = join(import.meta.dirname, '../../fixtures/forms');
const fixture = (name: string): FormSchema => loadSchema(JSON.parse(readFileSync(join(FIX, name), 'utf8')));

function wizard(form: FormSchema, steps: Step[], init: Partial<Wizard> = {}) {
  const p = scripted(steps);
  let saves = 0;
  const w: Wizard = { form, doc: {}, asked: new Set(), sections: form.sections.map((s) => s.key), prompter: p, colors: colors(false), save: () => void saves++, ...init };
  return { w, p, saves: () => saves };
}

describe('wizard (scripted prompter)', () => {
  it('asks section by section, follows conditionals as they change, refuses bad values, fills a group array', async () => {
    const form = fixture('conditional-2020.json');
    const { w, p, saves } = wizard(form, [
      [/^Fill in Section B\?/, true],
      [/^Note/, 'hello'],
      [/^Mode$/, 'Mode Y'],
      [/^Has a pet/, true],
      [/^Pet name$/, 'Rex'],
      [/^Detail for Y$/, 'ab'],
      [/^Detail for Y$/, 'abcd'],
      [/^Weekly/, '50'],
      [/^Weekly/, 'many'],
      [/^Weekly/, '30'],
      [/^Add a pet\?/, true],
      [/^Kind$/, 'cat'],
      [/^Indoor$/, true],
      [/^Add another entry to Pets/, 'Yes, add another'],
      [/^Kind$/, 'dog'],
    ]);
    await askAll(w);
    expect(p.left()).toEqual([]);
    expect(p.asked).toEqual(['Fill in Section B? (optional)', 'Note (optional)', 'Mode', 'Has a pet (optional)', 'Pet name', 'Detail for Y', 'Weekly (optional)', 'Add a pet?', 'Kind', 'Indoor', 'Add another entry to Pets? (1 so far)', 'Kind']);
    expect(p.refused.map((r) => r.error)).toEqual(['Detail for Y must have at least 3 characters', 'Weekly must be at most 40', 'Weekly must be a number such as 2400000 or 1234.56 (a dot marks decimals; digits may be grouped with commas: 2,400,000 or 24,00,000)']);
    expect(w.doc).toEqual({ b: { note: 'hello' }, a: { mode: 'y', hasPet: true, petName: 'Rex', detail: 'abcd', weekly: 30, pets: [{ kind: 'cat', indoor: true }, { kind: 'dog' }] } });
    expect(saves()).toBeGreaterThanOrEqual(11);
    expect(buildBodies(form, 'Ent', w.doc)).toEqual({
      create: { entity: 'Ent', a: { mode: 'y', hasPet: true, petName: 'Rex', detail: 'abcd', weekly: 30, pets: [{ kind: 'cat', indoor: true }, { kind: 'dog' }] } },
      dynamic: { b: { note: 'hello' } },
    });
  });

  it('review: changing an answer drops the answers whose condition no longer holds, then submits', async () => {
    const form = fixture('conditional-2020.json');
    const doc = { a: { mode: 'y', detail: 'abcd', hasPet: true, petName: 'Rex' } };
    const asked = new Set(['b.note', 'a.mode', 'a.detail', 'a.hasPet', 'a.petName', 'a.weekly', 'a.pets']);
    const { w, p } = wizard(form, [
      [/^What next/, 'Change an answer'],
      [/^Which answer/, 'Section A › Mode: Mode Y'],
      [/^Mode$/, 'Mode X'],
      [/^What next/, 'Change an answer'],
      [/^Which answer/, 'Section A › Has a pet: Yes'],
      [/^Has a pet/, false],
      [/^What next/, 'Submit'],
    ], { doc, asked });
    expect(await review(w)).toBe('submit');
    expect(p.left()).toEqual([]);
    expect(w.doc).toEqual({ a: { mode: 'x', hasPet: false } });
  });

  it('an optional section can be skipped as a whole', async () => {
    const form = fixture('conditional-2020.json');
    const { w, p } = wizard(form, [[/^Fill in Section B\?/, false], [/^Mode$/, 'Mode X'], [/^Has a pet/, false], [/^Weekly/, ''], [/^Add a pet\?/, false]]);
    await askAll(w);
    expect(p.left()).toEqual([]);
    expect(w.doc).toEqual({ a: { mode: 'x', hasPet: false } });
    expect(buildBodies(form, 'E', w.doc)).toEqual({ create: { entity: 'E', a: { mode: 'x', hasPet: false } }, dynamic: undefined });
  });

  it('review masks secrets and shows choice titles', () => {
    const form = loadSchema(getSchema('Acme Deutschland GmbH'));
    const { w } = wizard(form, [], { doc: { bank: { accountHolderName: 'Ada', iban: 'DE89370400440532013000' }, personal: { gender: 'FEMALE' } } });
    const text = reviewText(w);
    expect(text).toContain('IBAN: ********');
    expect(text).not.toContain('DE8937');
    expect(text).toContain('Gender: Female');
  });

  it('a secret already answered is kept when Enter is pressed again', async () => {
    const form = loadSchema(getSchema('Acme Deutschland GmbH'));
    const doc = { bank: { accountHolderName: 'Ada', iban: 'DE89370400440532013000' } };
    const { w, p } = wizard(form, [[/^IBAN/, '']], { doc, sections: ['bank'], asked: new Set(['bank.accountHolderName', 'bank.bic', 'bank.bankName']) });
    await askAll(w);
    expect(p.asked).toEqual(['IBAN']);
    expect(w.doc).toEqual(doc);
  });

  it('server field errors (422) are shown at their questions and asked again', async () => {
    const form = fixture('conditional-2020.json');
    const doc = { a: { mode: 'x', pets: [{ kind: 'dog' }] } };
    const asked = new Set(['b.note', 'a.mode', 'a.hasPet', 'a.weekly', 'a.pets', 'a.pets.0.kind']);
    const { w, p } = wizard(form, [[/^Mode$/, 'Mode Y'], [/^Detail for Y$/, 'long enough'], [/^Kind$/, 'cat'], [/^Indoor$/, false]], { doc, asked });
    const unowned = await fixIssues(w, [
      { path: 'a.mode', message: 'is not available for this entity', text: 'Mode is not available for this entity' },
      { path: 'a.pets[0].kind', message: 'bad', text: 'Kind bad' },
      { path: 'body', message: 'something else', text: 'body something else' },
    ]);
    expect(unowned.map((u) => u.path)).toEqual(['body']);
    expect(p.notes.join('\n')).toContain('✗ Mode is not available for this entity');
    expect(p.notes.join('\n')).toContain('✗ Kind bad');
    expect(w.doc).toEqual({ a: { mode: 'y', detail: 'long enough', pets: [{ kind: 'cat', indoor: false }] } });
  });

  it('resume asks only what was not asked yet', async () => {
    const form = fixture('draft07-nested.json');
    const doc = { person: { name: 'Ada', born: '1990-01-01' } };
    const { w, p } = wizard(form, [[/^ZIP/, '10115'], [/^Country/, 'France'], [/^Hours/, '20'], [/^Skills/, ['ts']], [/^Tags/, 'a, b'], [/^Fill in Extra\?/, true], [/^Secret/, 's3cret'], [/^Remote/, true]], {
      doc,
      asked: new Set(['person.name', 'person.born', 'person.pin']),
    });
    await askAll(w);
    expect(p.asked).toEqual(['ZIP', 'Country', 'Hours', 'Skills', 'Tags (optional) [comma-separated]', 'Fill in Extra? (optional)', 'Secret (optional)', 'Remote (optional)']);
    expect(w.doc).toEqual({ person: { name: 'Ada', born: '1990-01-01', home: { zip: '10115', country: 'FRA' } }, job: { hours: 20, skills: ['ts'], kind: 'GP', tags: ['a', 'b'] }, extra: { secret: 's3cret', remote: true } });
  });

  it('Ctrl-C in a prompt becomes InterruptedError, after the earlier answers were saved', async () => {
    const form = fixture('draft07-nested.json');
    const exit = Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' });
    expect(mapPromptError(exit)).toBeInstanceOf(InterruptedError);
    expect(mapPromptError(Object.assign(new Error('aborted'), { name: 'AbortPromptError' }))).toBeInstanceOf(InterruptedError);
    const other = new Error('x');
    expect(mapPromptError(other)).toBe(other);
    const { w, saves } = wizard(form, [[/^Full name/, 'Ada'], [/^Born on/, new InterruptedError()]]);
    await expect(askAll(w)).rejects.toBeInstanceOf(InterruptedError);
    expect(w.doc).toEqual({ person: { name: 'Ada' } });
    expect(saves()).toBe(1);
  });
});

describe('going back after a resume', () => {
  it('the history is kept in the draft (ids only, secret questions left out): Esc after --resume reaches questions answered before', async () => {
    const form = fixture('required-empty-2020.json');
    let file = '';
    const first = wizard(form, [[/^Name$/, 'Ada'], [/^Badge PIN/, '4711'], [/^Notes/, ['one', 'two']], [/^Address line 2/, new InterruptedError()]], { sections: ['profile'] });
    first.w.save = () => {
      const { answers, asked, history } = withoutSecrets(form, first.w.doc, first.w.asked, first.w.history);
      file = JSON.stringify({ answers, asked, history });
    };
    await expect(askAll(first.w)).rejects.toBeInstanceOf(InterruptedError);
    expect(file).not.toContain('4711');
    const draft = JSON.parse(file) as { answers: Record<string, unknown>; asked: string[]; history: string[] };
    expect(draft).toEqual({ answers: { profile: { name: 'Ada', notes: 'one\ntwo' } }, asked: ['profile.name', 'profile.notes'], history: ['profile.name', 'profile.notes'] });

    const { w, p } = wizard(
      form,
      [
        [/^Badge PIN/, '4712'], // asked again: secrets are not in drafts
        [/^Address line 2/, BACK], // back to the PIN, answered last
        [/^Badge PIN/, BACK], // back past the resume point
        [/^Notes/, ['three']],
        [/^Badge PIN/, ''], // Enter keeps 4712
        [/^Address line 2/, 'Flat 3'],
        [/^PO box/, undefined],
        [/^Skills/, ''],
        [/^Nickname/, ''],
        [/^Add another entry to Children/, 'No, continue'],
      ],
      { doc: draft.answers, asked: new Set(draft.asked), history: draft.history, sections: ['profile'] },
    );
    await askAll(w);
    expect(p.left()).toEqual([]);
    expect(p.asked.filter((m) => /^(Badge PIN|Address|Notes)/.test(m))).toEqual(['Badge PIN (optional)', 'Address line 2 (optional)', 'Badge PIN (optional)', 'Notes (optional)', 'Badge PIN (optional)', 'Address line 2 (optional)']);
    expect(w.doc.profile).toEqual({ name: 'Ada', pin: '4712', notes: 'three', address: { line2: 'Flat 3' }, skills: [], children: [{}] });
    expect(p.notes.join('\n')).not.toContain('nothing to go back to');
  });

  it('with no history (an old draft), Esc at the first question asked says there is nothing to go back to', async () => {
    const form = fixture('required-empty-2020.json');
    const { w, p } = wizard(form, [[/^Badge PIN/, BACK], [/^Badge PIN/, '']], { doc: { profile: { name: 'Ada' } }, asked: new Set(['profile.name', 'profile.notes', 'profile.address.line2', 'profile.address.poBox', 'profile.skills', 'profile.children']), history: [], sections: ['profile'] });
    await askAll(w);
    expect(p.notes.join('\n')).toContain('This is the first question: there is nothing to go back to.');
  });
});

describe('going back over an optional section and past hidden questions', () => {
  const answered = () => ({
    doc: { person: { name: 'Ada', born: '1990-01-01', home: { zip: '10115', country: 'DEU' } }, job: { hours: 20, skills: ['ts'], kind: 'GP' } } as Record<string, unknown>,
    asked: new Set(['person.name', 'person.born', 'person.pin', 'person.home.zip', 'person.home.country', 'job.hours', 'job.skills', 'job.kind', 'job.tags']),
  });

  it('Esc at the first question of an optional section goes back to its "Fill in?" question; Esc there to the question before', async () => {
    const form = fixture('draft07-nested.json');
    const { w, p } = wizard(
      form,
      [
        [/^Fill in Extra\?/, true],
        [/^Secret/, BACK],
        [/^Fill in Extra\?/, BACK],
        [/^Tags/, 'x'],
        [/^Fill in Extra\?/, false],
      ],
      { ...answered(), history: ['job.hours', 'job.skills', 'job.tags'] },
    );
    await askAll(w);
    expect(p.left()).toEqual([]);
    expect(p.asked).toEqual(['Fill in Extra? (optional)', 'Secret (optional)', 'Fill in Extra? (optional)', 'Tags (optional) [comma-separated]', 'Fill in Extra? (optional)']);
    expect(w.doc.job).toEqual({ hours: 20, skills: ['ts'], kind: 'GP', tags: ['x'] });
    expect(w.doc.extra).toBeUndefined();
    expect(w.history).toEqual(['job.hours', 'job.skills', 'job.tags', 'section:extra']);
  });

  it('steps in the history that are no longer questions (hidden since, or a fixed value) are passed over', async () => {
    const form = fixture('draft07-nested.json');
    const { w, p } = wizard(form, [[/^Fill in Extra\?/, BACK], [/^Hours/, '30'], [/^Fill in Extra\?/, false]], { ...answered(), history: ['job.hours', 'job.kind', 'job.gone', 'person.nothing'] });
    await askAll(w);
    expect(p.left()).toEqual([]);
    expect(p.asked).toEqual(['Fill in Extra? (optional)', 'Hours', 'Fill in Extra? (optional)']);
    expect((w.doc.job as { hours: number }).hours).toBe(30);
  });
});
