/** The word that makes the single-file executable answer one keyring request (src/sea-entry.ts, keyring-system.ts): a module of its own so the executable's start-up loads nothing else for it. */
export const SEA_CHILD_ARG = '__keyring-child';
