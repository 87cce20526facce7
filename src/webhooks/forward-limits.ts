// How many forwards `webhook listen --spool` keeps in flight: here, apart
// from the spool, so the command's definition (loaded for help and parsing)
// does not load the spool.
/** Forwards in flight by default: enough to keep up with a few hundred senders against a local app. */
export const DEFAULT_FORWARD_CONCURRENCY = 16;
export const MAX_FORWARD_CONCURRENCY = 64;
