// How many forwards `webhook listen --spool` keeps in flight: here, apart
// from the spool, so the command's definition (loaded for help and parsing)
// does not load the spool.
/**
 * Forwards in flight by default: as many as the forwarder keeps connections.
 * With 16, 200 senders outran the deliveries, so most answers waited for one
 * (keepUp) and the receiver spent more CPU an event: acknowledgements fell to
 * 0.72x of a verify-only receiver, against 0.86-0.92x with 64 (BENCHMARKS.md).
 * A target that fails pauses every forward (spool.ts), whatever the number.
 */
export const DEFAULT_FORWARD_CONCURRENCY = 64;
export const MAX_FORWARD_CONCURRENCY = 64;
