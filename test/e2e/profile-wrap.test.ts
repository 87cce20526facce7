// `profile get` on a terminal 80 columns wide wraps long values by
// display width (was an 89-cell line of Japanese): East Asian text between
// characters, continuation lines under the value. Served by a loopback API
// (port 0); widths measured independently (test/helpers/wcwidth.ts).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasScript } from '../helpers/pty.js';
import { isolatedEnv, runOnTerminal, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { wcswidth } from '../helpers/wcwidth.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const ID = '5e1f0000-0000-4000-8000-000000000025';
const PERSONAL: Record<string, string> = {
  addressJa: '東京都渋谷区神南一丁目二番三号、ＮＨＫ放送センター本館十二階（人事部給与計算課）の山田太郎宛てにお送りください。平日の午前九時から午後五時まで受け付けています。',
  noteZh: '这位员工于二零二六年一月加入北京分公司，负责亚太地区的薪资核算与合规审查工作，并协助人力资源部门完成年度绩效评估。',
  noteKo: '서울특별시 강남구 테헤란로 123번길 45 삼성빌딩 12층 인사팀 급여담당자에게 보내 주시기 바랍니다 감사합니다',
  homepage: 'https://例え.テスト/社員/山田太郎/プロフィール',
  firstName: '太郎',
};

let server: Server;
let url: string;
let dir: { path: string; cleanup: () => void };

beforeAll(async () => {
  dir = tempDir();
  server = createServer((req, res) => {
    // Every section request gets the one record (profile get asks for `personal` only).
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(PERSONAL));
  });
  const serverAt = await listenOnLoopback(server);
  url = serverAt.url;
});
afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

const env = () => isolatedEnv(dir.path, { PARTNER_BASE_URL: url, PARTNER_TOKEN: 'test-token-1234', TERM: 'xterm' });

/** The lines of each value of a key/value block: label line and continuation lines, keyed by label. */
function valuesOf(out: string, labels: string[]): Map<string, string[]> {
  const lines = out.split('\n');
  const result = new Map<string, string[]>();
  for (const label of labels) {
    const i = lines.findIndex((l) => new RegExp(`^ +${label} {2,}\\S`).test(l));
    expect(i, `${label} in\n${out}`).toBeGreaterThanOrEqual(0);
    const start = /^ +\S.*? {2,}(?=\S)/.exec(lines[i]!)![0].length;
    const mine = [lines[i]!.slice(start)];
    for (const l of lines.slice(i + 1)) {
      if (l.length <= start || l.slice(0, start).trim() !== '') break;
      mine.push(l.slice(start));
    }
    result.set(label, mine);
  }
  return result;
}

describe.skipIf(!hasScript)('profile get on a terminal', () => {
  it('at 80 columns: every line within 80 cells, CJK values wrapped under the value and whole, the URL whole', async () => {
    const out = await runOnTerminal(['profile', 'get', ID, 'personal', '-o', 'table'], { env: env(), columns: 80 });
    expect(out).not.toMatch(/Error/);
    for (const l of out.trimEnd().split('\n')) expect(wcswidth(l), l).toBeLessThanOrEqual(80);
    const values = valuesOf(out, ['Address ja', 'Note zh', 'Note ko', 'Homepage', 'First name']);
    for (const [label, key] of [['Address ja', 'addressJa'], ['Note zh', 'noteZh'], ['Note ko', 'noteKo']] as const) {
      const lines = values.get(label)!;
      expect(lines.length, label).toBeGreaterThan(1);
      // Broken between characters (Korean at its spaces too): nothing lost, nothing added.
      expect(lines.join('').replace(/ /g, ''), label).toBe(PERSONAL[key]!.replace(/ /g, ''));
      // Lines are filled: each but the last leaves less room than the next piece needs.
      for (const l of lines.slice(0, -1)) expect(wcswidth(l), l).toBeGreaterThan(60);
      // Kinsoku: no line starts with a comma or full stop.
      for (const l of lines.slice(1)) expect(l).not.toMatch(/^[、。，]/);
    }
    expect(values.get('Homepage')).toEqual([PERSONAL.homepage]);
    expect(values.get('First name')).toEqual(['太郎']);
  });

  it('piped: one line per value, whatever its width', async () => {
    const r = await runMain(['profile', 'get', ID, 'personal', '-o', 'table'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    for (const v of Object.values(PERSONAL)) expect(r.stdout.split('\n').some((l) => l.endsWith(v))).toBe(true);
  });
});
