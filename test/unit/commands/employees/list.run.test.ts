// employees list in-process: the exact requests sent (stubs that must all be
// used; anything else fails) and what each output format prints.
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { list } from '../../../../src/commands/employees/list.js';
import { runInProcess, TOKEN } from '../../../helpers/command.js';

const employee = (n: number) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  employeeCode: `ACME-${String(n).padStart(5, '0')}`,
  fullName: `Person ${n}`,
  workEmail: `p${n}@acme.example`,
  designation: '=HYPERLINK("http://x")',
  department: 'Data',
  status: 'ACTIVE',
  country: 'DEU',
  startDate: '2020-01-01',
});
const page = (items: unknown[], p: number, totalPages: number, total: number) => ({ data: items, pagination: { currentPage: p, pageSize: items.length, totalPages, totalItems: total, hasNextPage: p < totalPages, hasPreviousPage: p > 1 } });

describe('employees list (in-process, stubbed HTTP)', () => {
  it('sends the validated query with the token, and prints the {data, pagination} document', async () => {
    const r = await runInProcess(list, [], { status: 'active', pageSize: '2', page: '3' }, {
      stub: (api) =>
        api
          .get('/v1/employees?page=3&pageSize=2&status=ACTIVE')
          .matchHeader('authorization', `Bearer ${TOKEN}`)
          .reply(200, page([employee(5), employee(6)], 3, 4, 8)),
    });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.data.map((e: { employeeCode: string }) => e.employeeCode)).toEqual(['ACME-00005', 'ACME-00006']);
    expect(doc.pagination).toMatchObject({ currentPage: 3, totalItems: 8 });
  });

  it('-q prints ids, --fields picks, CSV neutralises formulas', async () => {
    const stub = (api: import('nock').Scope) => api.get('/v1/employees').reply(200, page([employee(1)], 1, 1, 1));
    expect((await runInProcess(list, [], { quiet: true }, { stub })).out).toBe(`${employee(1).id}\n`);
    expect(JSON.parse((await runInProcess(list, [], { fields: 'employeeCode,status' }, { stub })).out).data).toEqual([{ employeeCode: 'ACME-00001', status: 'ACTIVE' }]);
    const csv = parseCsv((await runInProcess(list, [], { output: 'csv' }, { stub })).out, { columns: true }) as Record<string, string>[];
    expect(csv[0]!.designation).toBe(`'=HYPERLINK("http://x")`);
  });

  it('--all walks every page and writes one document, pagination last', async () => {
    const r = await runInProcess(list, [], { all: true, pageSize: '1', concurrency: '1', progress: false }, {
      stub: (api) => {
        api.get('/v1/employees?page=1&pageSize=1').reply(200, page([employee(1)], 1, 2, 2));
        api.get('/v1/employees?page=2&pageSize=1').reply(200, page([employee(2)], 2, 2, 2));
      },
    });
    expect(r.code).toBe(0);
    expect(r.out.trimEnd().endsWith('}')).toBe(true);
    const doc = JSON.parse(r.out);
    expect(doc.data).toHaveLength(2);
    expect(doc.pagination).toMatchObject({ currentPage: 2, totalItems: 2 });
  });

  it('--all --limit: the pagination is that of the page the limit was reached on, as without --limit', async () => {
    const first = page([employee(1), employee(2)], 1, 3, 6);
    const r = await runInProcess(list, [], { all: true, limit: '1', pageSize: '2', concurrency: '1', progress: false }, {
      stub: (api) => api.get('/v1/employees?page=1&pageSize=2').reply(200, first),
    });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.data).toHaveLength(1);
    expect(doc.pagination).toEqual(first.pagination);
  });

  it('a table on a terminal, with the page footer', async () => {
    const r = await runInProcess(list, [], {}, { tty: true, stub: (api) => api.get('/v1/employees').reply(200, page([employee(1)], 1, 3, 41)) });
    expect(r.out).toMatch(/ACME-00001/);
    expect(r.out).toMatch(/Page 1 of 3 · 41 employees · next: --page 2, or --all/);
  });
});

describe('the stubbed HTTP layer is strict', () => {
  it('a request no stub matches fails the command (no network)', async () => {
    await expect(runInProcess(list, [], { status: 'ACTIVE' }, { stub: (api) => api.get('/v1/employees').reply(200, page([], 1, 1, 0)) })).rejects.toThrow();
  });

  it('a stub left unused fails the test', async () => {
    await expect(
      runInProcess(list, [], {}, {
        stub: (api) => {
          api.get('/v1/employees').reply(200, page([], 1, 1, 0));
          api.get('/v1/employees?page=2').reply(200, page([], 2, 2, 0));
        },
      }),
    ).rejects.toThrow(/Mocks not yet satisfied/);
  });
});
