import { describe, expect, it } from 'vitest';
import { periodicCollector } from '../../../src/api/memory.js';

describe('periodicCollector', () => {
  it('looks at the heap every few pages and collects only past the bound', () => {
    let heap = 10;
    let looks = 0;
    let collections = 0;
    const onPage = periodicCollector({
      everyPages: 5,
      maxHeapBytes: 100,
      heapUsed: () => (looks++, heap),
      collect: () => {
        collections++;
        heap = 10;
      },
    });
    for (let i = 0; i < 20; i++) onPage();
    expect(looks).toBe(4);
    expect(collections).toBe(0);
    heap = 101;
    for (let i = 0; i < 4; i++) onPage();
    expect(collections).toBe(0);
    onPage();
    expect(collections).toBe(1);
    heap = 100;
    for (let i = 0; i < 5; i++) onPage();
    expect(collections).toBe(1);
  });

  it("uses V8's own gc() by default, and never throws", () => {
    const onPage = periodicCollector({ everyPages: 1, maxHeapBytes: 0 });
    expect(() => onPage()).not.toThrow();
  });
});
