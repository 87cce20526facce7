// The ids of spooled events: the time received (base 36) and 48 random bits,
// as `webhook listen` always wrote them. Unique and unguessable: the random
// part comes from the CSPRNG, drawn 6 KiB at a time rather than 6 bytes an
// event (randomBytes per event showed in the receiver's profile).
import { randomBytes } from 'node:crypto';

const ID_BYTES = 6;
const POOL_IDS = 1024;

export class EventIds {
  private pool = Buffer.alloc(0);
  private at = 0;

  next(now: number): string {
    if (this.at + ID_BYTES > this.pool.length) {
      this.pool = randomBytes(ID_BYTES * POOL_IDS);
      this.at = 0;
    }
    const random = this.pool.toString('hex', this.at, this.at + ID_BYTES);
    this.at += ID_BYTES;
    return `${now.toString(36)}-${random}`;
  }
}
