// The keyring call itself, in a child process of its own (dist/keyring-child.js,
// spawned by keyring-system.ts). A native keyring call can block for ever (an unlock
// prompt nobody answers, a D-Bus peer that never replies) and cannot be
// cancelled in its thread: a worker thread blocked in it even keeps the process
// from exiting. A child can be killed, so the CLI never waits more than the
// time limit. The request comes on stdin (the token never on argv), the answer
// goes to stdout as one JSON object.
import { loadKeyringModule } from './keyring-module.js';
import { isSingleExecutable } from '../runtime/sea-assets.js';
import type { KeyringReply, KeyringRequest } from './keyring.js';

/** A request is a few hundred bytes and a token (at most 8192 characters). */
const MAX_REQUEST_BYTES = 64 * 1024;

async function readRequest(): Promise<KeyringRequest> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) throw new Error('the request to the keyring helper is too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as KeyringRequest;
}

type EntryClass = Awaited<ReturnType<typeof loadKeyringModule>>['Entry'];

// Linux: the Secret Service only. The library would otherwise fall back to the
// kernel keyring, which forgets the token at log-out: never a silent fallback.
const entryOf = (Entry: EntryClass, service: string, account: string) => new Entry(service, account, { linux: { store: 'secret-service' } });

/** Whether the keyring answers a read of an entry nobody has (it is there: a failure was a refusal, not an absence). */
function serviceAnswers(Entry: EntryClass, service: string): boolean {
  try {
    entryOf(Entry, service, '(partner probe: no such entry)').getPassword();
    return true;
  } catch {
    return false;
  }
}

async function answer(req: KeyringRequest): Promise<KeyringReply> {
  const { Entry } = await loadKeyringModule();
  try {
    return op(entryOf(Entry, req.service, req.account), req);
  } catch (err) {
    return { ok: false, message: String((err as Error).message ?? err).slice(0, 500), serviceAnswers: serviceAnswers(Entry, req.service) };
  }
}

function op(entry: InstanceType<EntryClass>, req: KeyringRequest): KeyringReply {
  if (req.op === 'get') return { ok: true, value: entry.getPassword() ?? null };
  if (req.op === 'set') {
    entry.setPassword(req.secret ?? '');
    return { ok: true, value: null };
  }
  return { ok: true, value: entry.deletePassword() };
}

/** One request from stdin, one answer on stdout (the single-file executable runs this as `partner __keyring-child`). */
export async function keyringChild(): Promise<void> {
  let reply: KeyringReply;
  try {
    reply = await answer(await readRequest());
  } catch (err) {
    // The helper itself failed (the native module would not load, a bad request): no `serviceAnswers`.
    reply = { ok: false, message: String((err as Error).message ?? err).slice(0, 500) };
  }
  process.stdout.write(JSON.stringify(reply));
}

// dist/keyring-child.js is run as a script; the executable imports this module and calls keyringChild() itself.
if (!isSingleExecutable()) void keyringChild();
