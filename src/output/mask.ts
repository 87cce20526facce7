// Bank account numbers as partner shows them unless --reveal: the last four
// characters only. `profile get` and the MCP server's profile tool share it.

/** The keys whose values are account numbers (a bank section's `accountNumber`, `iban`). */
export const ACCOUNT_KEY = /^(accountNumber|iban)$/i;

/** The account number on screen: its last 4 characters. */
export function maskAccount(value: unknown): unknown {
  if (value === null || value === undefined || typeof value === 'object') return value;
  const text = String(value);
  return text.length <= 4 ? '****' : `****${text.slice(-4)}`;
}

/** A bank section with every account number in it masked, at any depth. */
export function maskBankSection(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskBankSection);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ACCOUNT_KEY.test(k) ? maskAccount(v) : maskBankSection(v)]));
}
