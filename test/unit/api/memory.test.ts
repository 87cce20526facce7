import { describe, expect, it } from 'vitest';
import { periodicCollector } from '../../../src/api/memory.js';

describe('periodicCollector', () => {
  it('collects nothing in a short walk, then every `everyPages` pages', () => {
    const at: number[] = [];
    let page = 0;
    const onPage = periodicCollector({ firstAfterPages: 20, everyPages: 5, collect: () => at.push(page) });
    for (page = 1; page <= 36; page++) onPage();
    expect(at).toEqual([25, 30, 35]);
  });

  it('by default: the first after 250 pages, then every 50', () => {
    const at: number[] = [];
    let page = 0;
    const onPage = periodicCollector({ collect: () => at.push(page) });
    for (page = 1; page <= 400; page++) onPage();
    expect(at).toEqual([250, 300, 350, 400]);
  });

  it("uses V8's own gc() otherwise, and never throws", () => {
    const onPage = periodicCollector({ firstAfterPages: 0, everyPages: 1 });
    expect(() => onPage()).not.toThrow();
  });
});
