// Delivery of signed webhook events: HTTP POST of the compact JWS string with
// Content-Type application/json, one connection per delivery (no pooling, so
// nothing keeps a receiver's server open).
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface DeliveryResult {
  status: number;
  body: string;
}

/** In-flight deliveries, so their owner can abort them on close. */
export class WebhookSender {
  private readonly inflight = new Set<ClientRequest>();
  private closed = false;

  /** POSTs `jws` to `url`; resolves with the receiver's answer, rejects on network errors. */
  deliver(url: string, jws: string, timeoutMs = 10_000): Promise<DeliveryResult> {
    if (this.closed) return Promise.reject(new Error('webhook sender closed'));
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        target,
        {
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(jws),
            'user-agent': 'partner-sandbox-webhooks/1',
            connection: 'close',
          },
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      this.inflight.add(req);
      req.on('close', () => this.inflight.delete(req));
      req.on('timeout', () => req.destroy(new Error(`webhook delivery to ${target.origin} timed out`)));
      req.on('error', reject);
      req.end(jws);
    });
  }

  close(): void {
    this.closed = true;
    for (const r of this.inflight) r.destroy();
    this.inflight.clear();
  }
}

/** The envelope of an event (the JWS payload). */
export function envelope(eventType: string, data: Record<string, unknown>, now = new Date()): Record<string, unknown> {
  return { eventType, timestamp: now.toISOString(), data };
}
