import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PagedStdout, pagerChoice, type PagerConfig } from '../../../src/output/pager.js';

/** A terminal's stream, as the pager sees it: its size, and what reached it. */
function terminal(rows: number, columns: number): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = Object.assign(new PassThrough(), { rows, columns, isTTY: true }) as unknown as NodeJS.WriteStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

describe('the pager chosen', () => {
  it('is PARTNER_PAGER, then the config, then PAGER, then less; empty or cat is none', () => {
    const config = (): PagerConfig => ({ pager: 'most' });
    expect(pagerChoice({ PARTNER_PAGER: 'bat', PAGER: 'more' }, config)).toEqual({ command: 'bat', from: 'PARTNER_PAGER' });
    expect(pagerChoice({ PAGER: 'more' }, config)).toEqual({ command: 'most', from: 'the config file\'s "pager"' });
    expect(pagerChoice({ PAGER: ' more ' })).toEqual({ command: 'more', from: 'PAGER' });
    expect(pagerChoice({})).toEqual({ command: 'less -FRX', from: 'the default' });
    expect(pagerChoice({ PARTNER_PAGER: '' }, config)).toBeUndefined();
    expect(pagerChoice({ PAGER: 'cat' })).toBeUndefined();
  });

  it('passes over a refused config pager with its warning, and reads the config only when PARTNER_PAGER is unset', () => {
    const warned: string[] = [];
    let reads = 0;
    const config = (): PagerConfig => (reads++, { refused: 'not yours' });
    expect(pagerChoice({ PAGER: 'more' }, config, (m) => warned.push(m))).toEqual({ command: 'more', from: 'PAGER' });
    expect(warned).toEqual(['not yours']);
    expect(pagerChoice({ PARTNER_PAGER: 'bat' }, config, (m) => warned.push(m))?.command).toBe('bat');
    expect(reads).toBe(1);
  });
});

describe('paged stdout', () => {
  it('writes output as tall as the screen as it is, without a pager', async () => {
    const out = terminal(24, 80);
    const err = terminal(24, 80);
    const paged = new PagedStdout(out.stream, err.stream, { command: 'nosuchpager-unit', from: 'PARTNER_PAGER' }, {});
    paged.write(lines(24));
    await paged.close();
    expect(out.text()).toBe(lines(24));
    expect(err.text()).toBe('');
  });

  it('says once that a pager could not start, and writes everything as it is', async () => {
    const out = terminal(24, 80);
    const err = terminal(24, 80);
    const paged = new PagedStdout(out.stream, err.stream, { command: 'nosuchpager-unit-once', from: 'PARTNER_PAGER' }, {});
    paged.write(lines(30));
    paged.write('more\n');
    await paged.close();
    expect(out.text()).toBe(`${lines(30)}more\n`);
    expect(err.text().match(/warning: the pager "nosuchpager-unit-once" \(PARTNER_PAGER\) was not found; the output is shown without a pager/g)).toHaveLength(1);
  });

  it('shows the line kept in view again once the pager has ended', async () => {
    const out = terminal(5, 80);
    const err = terminal(5, 80);
    // A pager that quits at once, reading nothing (as a person who presses q on the first screen).
    const paged = new PagedStdout(out.stream, err.stream, { command: 'true', from: 'PARTNER_PAGER' }, {});
    // The reader went away (EPIPE): the CLI treats it as a normal end (cli.ts).
    paged.on('error', () => undefined);
    paged.write(lines(10));
    paged.keepInView('Page 1 of 2 · next: --page 2');
    paged.write('Page 1 of 2 · next: --page 2\n');
    await paged.close();
    expect(out.text()).toBe('Page 1 of 2 · next: --page 2\n');
  });
});
