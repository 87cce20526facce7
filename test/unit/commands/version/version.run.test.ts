import { describe, expect, it } from 'vitest';
import { version } from '../../../../src/commands/version/version.js';
import { packageVersion } from '../../../../src/version.js';
import { runInProcess } from '../../../helpers/command.js';

describe('partner version', () => {
  it('prints the version, Node.js and the platform; JSON when piped', async () => {
    const json = JSON.parse((await runInProcess(version, [], {})).out);
    expect(json).toEqual({ version: packageVersion(), node: process.versions.node, platform: `${process.platform}-${process.arch}` });
    const table = (await runInProcess(version, [], { output: 'table' })).out;
    expect(table).toBe(`partner ${packageVersion()}\nNode.js ${process.versions.node}\nPlatform ${process.platform}-${process.arch}\n`);
  });
});
