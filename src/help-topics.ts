// Help topics: what applies to every command (`partner help environment`,
// `exit-codes`, `formats`, `configuration`, `globals`). One source for the
// help and for the generated manual (scripts/gen-docs.mjs), so the two never
// say different things. Plain text; help.ts wraps it to the terminal.

export interface HelpTopic {
  name: string;
  summary: string;
  /** Paragraphs and indented lists; lines starting with two spaces are kept as they are. */
  body: string;
}

export const EXIT_CODE_LIST: readonly [number, string][] = [
  [0, 'success'],
  [1, 'failure not covered below (server error after retries, network, a file that cannot be written)'],
  [2, 'usage: a bad flag or argument, or input refused before anything was sent'],
  [3, 'not authenticated: no token, or the server answered 401'],
  [4, 'forbidden: the server answered 403'],
  [5, 'not found: the server answered 404, or no employee matches'],
  [6, 'conflict: the server answered 409'],
  [7, 'rejected by the server: 400 or 422 (the failing fields are listed)'],
  [8, 'webhook verification failed'],
  [130, 'interrupted: Ctrl-C, SIGTERM, or the terminal closed'],
];

export const ENVIRONMENT_LIST: readonly [string, string][] = [
  ['PARTNER_TOKEN', 'the API token; wins over the profile\'s saved token (never a flag, so it stays out of shell history)'],
  ['PARTNER_PROFILE', 'the saved profile to use (like --profile)'],
  ['PARTNER_BASE_URL', 'the API base URL (like --base-url)'],
  ['PARTNER_CONFIG_DIR', 'the directory of config.json (default: ~/.config/partner on Linux)'],
  ['PARTNER_CACHE_DIR', 'the directory of the webhook key-set cache (default: ~/.cache/partner on Linux)'],
  ['PARTNER_STATE_DIR', 'the directory of the audit log of writes (default: ~/.local/state/partner on Linux); these three must be absolute paths'],
  ['PARTNER_DEBUG', 'set to 1 to log requests and responses to stderr, token redacted (like --debug)'],
  ['NO_COLOR', 'set to anything to turn colour off (like --no-color)'],
  ['PARTNER_PAGER, PAGER', 'the pager for output longer than the terminal (default: less -FRX); empty: none (like --no-pager). Between the two comes "pager" in config.json ({"pager": ""} turns it off for good)'],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'the proxy for API requests (loopback addresses are always reached directly)'],
];

function list(rows: readonly (readonly [string | number, string])[]): string {
  const width = Math.max(...rows.map(([k]) => String(k).length));
  return rows.map(([k, v]) => `  ${String(k).padEnd(width)}  ${v}`).join('\n');
}

export const HELP_TOPICS: readonly HelpTopic[] = [
  {
    name: 'globals',
    summary: 'the global flags, accepted before or after any command',
    // The flag list itself is rendered from the global flag definitions (help.ts).
    body: 'These flags work with every command, before or after it (partner --sandbox employees list, or partner employees list --sandbox). A command\'s help names the ones that matter most for it.',
  },
  {
    name: 'environment',
    summary: 'environment variables partner reads',
    body: `Flags win over environment variables, which win over the active profile.\n\n${list(ENVIRONMENT_LIST)}`,
  },
  {
    name: 'exit-codes',
    summary: 'what each exit code means',
    body: `${list(EXIT_CODE_LIST)}\n\nErrors are printed as text when stderr is a terminal. When stderr is not a terminal and the output is json or ndjson (-o, --jq, or stdout piped), an error is one JSON object on one line of stderr: {"error": {"code", "status", "message", "details", "exitCode", "hint", ...}}, with the same exit code.`,
  },
  {
    name: 'formats',
    summary: 'output formats and the flags that shape them',
    body: `Commands that print records offer some of these formats with -o:\n\n${list([
      ['table', 'the default on a terminal: the most useful columns fitted to the width; columns that do not fit are named in a note'],
      ['json', 'the default when piped: lists with pages are {"data": [...], "pagination": {...}}'],
      ['ndjson', 'one JSON object per line'],
      ['csv', 'RFC 4180 with a header row; cells starting with = + - @ get a leading \', control characters show as ␛ ␇ … (--csv-raw keeps both)'],
    ])}\n\n--fields a,b.c picks and orders fields (dot paths reach nested values), in every format. --jq EXPR filters the JSON result with the built-in jq: one result per line, strings unquoted. -q prints only ids, one per line. Text from the API is made safe before it reaches a terminal or a spreadsheet cell.`,
  },
  {
    name: 'configuration',
    summary: 'profiles, the config file, and which value wins',
    body: `For each value: flags win over the environment, which wins over the active profile.\n\n${list([
      ['profile', '--profile, PARTNER_PROFILE, else the last one logged in'],
      ['base URL', '--base-url, PARTNER_BASE_URL, else the profile\'s'],
      ['token', 'PARTNER_TOKEN, else the profile\'s, from the system keyring or the config file (never a flag)'],
    ])}\n\npartner auth login saves a profile in config.json in the config directory (PARTNER_CONFIG_DIR; ~/.config/partner on Linux), mode 0600 in a 0700 directory; a symbolic link in its place is refused. Its token goes into the system keyring (macOS Keychain, Windows Credential Manager, the Secret Service on Linux), or with --insecure-storage into config.json; partner auth status says where each profile's is. An empty or relative HOME or XDG_* directory is never used (the account's home is). Base URLs must be https, except loopback addresses, and never hold a user:password@. Every write (POST, PATCH, PUT, DELETE) is recorded in the audit log (partner audit list; "audit": false in a profile turns it off). Each request has a time limit (--timeout, 30 seconds by default); GET requests are retried on connection errors and 429/5xx answers, POST and PATCH never; redirects are not followed.`,
  },
];

export function findTopic(name: string): HelpTopic | undefined {
  return HELP_TOPICS.find((t) => t.name === name || (name === 'exit' && t.name === 'exit-codes') || (name === 'env' && t.name === 'environment'));
}
