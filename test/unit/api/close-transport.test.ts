// Closing the HTTP client never outlives the command: a graceful close that
// never ends (a request a proxy agent keeps reconnecting for) is forced after the
// grace; a close that fails is done; a normal close is not forced.
import { describe, expect, it } from 'vitest';
import { closeTransport } from '../../../src/api/http.js';
import type { Transport } from '../../../src/api/transport.js';

function fake(close: () => Promise<void>) {
  const calls = { destroy: 0 };
  const d = { close, destroy: async () => void calls.destroy++ } as unknown as Transport;
  return { d, calls };
}

describe('closeTransport', () => {
  it('forces a close that does not end within the grace', async () => {
    const { d, calls } = fake(() => new Promise<void>(() => undefined));
    await closeTransport(d, 20);
    expect(calls.destroy).toBe(1);
  });

  it('leaves a close that ends in time alone', async () => {
    const { d, calls } = fake(async () => undefined);
    await closeTransport(d, 1000);
    expect(calls.destroy).toBe(0);
  });

  it('takes a close that fails as closed, without throwing or forcing', async () => {
    const { d, calls } = fake(async () => {
      throw new Error('already destroyed');
    });
    await expect(closeTransport(d, 1000)).resolves.toBeUndefined();
    expect(calls.destroy).toBe(0);
  });
});
