import { describe, expect, it } from 'vitest';
import { version } from '../../../../src/commands/version/version.js';
import { packageVersion } from '../../../../src/version.js';
import { runInProcess } from '../../../helpers/command.js';

describe('partner version', () => {
  it('prints the version, Node.js and the platform; JSON when piped', async () => {
    const json = JSON.parse((await runInProcess(version, [], {})).out);
    // From the sources (not built) the commit and build date are unknown; dist/build-info.json says them (launcher.test.ts).
    expect(json).toEqual({ version: packageVersion(), commit: 'unknown', buildDate: 'unknown', node: process.versions.node, platform: `${process.platform}-${process.arch}` });
    const table = (await runInProcess(version, [], { output: 'table' })).out;
    expect(table).toBe(`partner ${packageVersion()}\nNode.js ${process.versions.node}\nPlatform ${process.platform}-${process.arch}\n`);
  });
});
