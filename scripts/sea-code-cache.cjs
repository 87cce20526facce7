// V8's code cache of the single executable's CLI script (scripts/build-binary.mjs runs this with
// the pinned Node the executable carries; V8 refuses a cache made by another version):
//   node scripts/sea-code-cache.cjs <cli script> <cache out> <work dir>
// The cache is taken after one training run of a one-page lookup on the embedded sandbox
// (output discarded, every directory partner uses inside <work dir>): it then holds the compiled
// code of every function a lookup runs, not only the script's top level, so the executable's
// lookups compile almost nothing. The script itself is the same whatever the run did.
'use strict';
const { writeFileSync, readFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

const [source, out, work] = process.argv.slice(2);
for (const d of ['config', 'cache', 'state', 'home']) mkdirSync(join(work, d), { recursive: true });
Object.assign(process.env, { PARTNER_CONFIG_DIR: join(work, 'config'), PARTNER_CACHE_DIR: join(work, 'cache'), PARTNER_STATE_DIR: join(work, 'state'), HOME: join(work, 'home'), NO_COLOR: '1', PARTNER_PAGER: '' });
// The same name as src/sea-entry.ts gives it.
const script = new Script(readFileSync(source, 'utf8'), { filename: 'partner-cli.cjs' });
process.on('exit', (code) => {
  if (code !== 0) process.stderr.write(`sea-code-cache: the training run exited with ${code}\n`);
  writeFileSync(out, script.createCachedData());
});
const cli = { exports: {} };
script.runInThisContext()(cli.exports, require, cli, __filename, __dirname);
cli.exports.run(['--sandbox', 'employees', 'list', '-o', 'table']);
