// Each test worker, hermetic (test/setup/global.ts explains): the run's
// environment, even if the pool did not hand it down, and the passwd entry's
// home pointing into the run's directory, so an in-process context built
// without HOME (partner then asks os.userInfo()) stays inside it too.
import os from 'node:os';
import { syncBuiltinESMExports } from 'node:module';
import { inject } from 'vitest';
import { runEnv } from './run-env.js';

const home = inject('runHome');
for (const k of Object.keys(process.env)) if (k.startsWith('PARTNER_') || k === 'DBUS_SESSION_BUS_ADDRESS') delete process.env[k];
Object.assign(process.env, runEnv(home));

const realUserInfo = os.userInfo;
os.userInfo = ((options?: { encoding: BufferEncoding }) => ({ ...realUserInfo(options), homedir: home })) as typeof os.userInfo;
syncBuiltinESMExports();
