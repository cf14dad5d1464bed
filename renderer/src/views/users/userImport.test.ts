import { describe, expect, it } from 'vitest'
import { userImportBody } from '@contract/catalog/users'
import { IMPORT_COLUMNS, MAX_IMPORT_ROWS, REQUIRED_COLUMNS, previewUserCsv } from './userImport'

const csv = (...lines: string[]) => lines.join('\r\n') + '\r\n'

describe('reading a users CSV before anything is sent', () => {
  it('reads the catalog row columns, email and role required', () => {
    expect(IMPORT_COLUMNS).toEqual(['email', 'first_name', 'last_name', 'role'])
    expect(REQUIRED_COLUMNS).toEqual(['email', 'role'])
  })

  it('keeps good rows ready and names each bad row, field and reason', () => {
    const preview = previewUserCsv(
      csv(
        'Email,First name,Last name,Role,Department',
        'Ana@Example.test, Ana ,Lima,Analyst,Sec',
        'not-an-email,Bo,,analyst,Sec',
        'cy@example.test,Cy,Doe,overlord,Ops',
        'ana@example.test,Ana,Again,manager,Ops',
        'di@example.test,,,customer,',
      ),
    )
    expect(preview.fileProblem).toBeNull()
    expect(preview.ignoredColumns).toEqual(['department'])
    expect(preview.ready.map((r) => r.user)).toEqual([
      { email: 'ana@example.test', first_name: 'Ana', last_name: 'Lima', role: 'analyst' },
      { email: 'di@example.test', role: 'customer' },
    ])
    expect(preview.failed.map((r) => [r.row, r.problems])).toEqual([
      [2, [{ field: 'email', message: 'must be an e-mail address' }]],
      [3, [{ field: 'role', message: 'must be one of administrator, manager, analyst, customer' }]],
      [4, [{ field: 'email', message: 'appears more than once in this file' }]],
    ])
    // the cells stay as typed (trimmed) for the preview
    expect(preview.rows[1].cells).toEqual({
      email: 'not-an-email',
      first_name: 'Bo',
      last_name: '',
      role: 'analyst',
    })
  })

  it('keeps formula-looking cells as text and marks them', () => {
    const preview = previewUserCsv(
      csv('email,first_name,last_name,role', 'eve@example.test,=HYPERLINK("http://x"),@x,analyst'),
    )
    expect(preview.ready[0].user?.first_name).toBe('=HYPERLINK("http://x")')
    expect(preview.ready[0].formulaLike).toEqual(['first_name', 'last_name'])
  })

  it('marks a row with more cells than the header, and a name over 100 characters', () => {
    const preview = previewUserCsv(
      csv('email,role', 'a@example.test,analyst,extra', `b@example.test,analyst`),
    )
    expect(preview.failed.map((r) => r.row)).toEqual([1])
    expect(preview.failed[0].problems[0].field).toBe('row')
    const long = previewUserCsv(
      csv('email,role,first_name', `c@example.test,analyst,${'x'.repeat(101)}`),
    )
    expect(long.failed[0].problems).toEqual([
      { field: 'first_name', message: 'must be at most 100 characters' },
    ])
  })

  it('refuses a whole file that cannot be imported, saying why', () => {
    expect(previewUserCsv(csv('email,first_name', 'a@example.test,A')).fileProblem).toContain(
      'role is missing',
    )
    expect(previewUserCsv('').fileProblem).toContain('email and role are missing')
    expect(previewUserCsv(csv('email,role')).fileProblem).toBe(
      'The file has a header row but no users.',
    )
    expect(previewUserCsv('email,role\r\n"a@example.test,analyst\r\n').fileProblem).toMatch(
      /not valid CSV/,
    )
  })

  it('refuses more rows than one import takes, the catalog’s own limit', () => {
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => `u${i}@example.test,analyst`).join('\n')
    expect(previewUserCsv(`email,role\n${rows(MAX_IMPORT_ROWS)}`).ready).toHaveLength(
      MAX_IMPORT_ROWS,
    )
    expect(previewUserCsv(`email,role\n${rows(MAX_IMPORT_ROWS + 1)}`).fileProblem).toBe(
      `The file has ${MAX_IMPORT_ROWS + 1} rows; one import takes at most ${MAX_IMPORT_ROWS}. Split it into smaller files.`,
    )
    const user = { email: 'a@example.test', role: 'analyst' }
    expect(userImportBody.safeParse({ users: Array(MAX_IMPORT_ROWS).fill(user) }).success).toBe(
      true,
    )
    expect(userImportBody.safeParse({ users: Array(MAX_IMPORT_ROWS + 1).fill(user) }).success).toBe(
      false,
    )
  })
})
