import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { resourceByKey } from '@/resources'
import { apiCalls, listAnswer, useTwoAccounts } from '@/test/composables'
import { byTestId, click, theTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import UserImportDialog from './UserImportDialog.vue'

const answer = (data: unknown) => ({ data: { data }, fetchedAt: '', fromCache: false })

const fake = useTwoAccounts()

async function choose(text: string, name = 'users.csv'): Promise<void> {
  const input = theTestId<HTMLInputElement>('import-file')
  const file = new File([text], name, { type: 'text/csv' })
  Object.defineProperty(input, 'files', { value: [file], configurable: true })
  input.dispatchEvent(new Event('change'))
  await new Promise((r) => setTimeout(r, 20))
  await flushPromises()
}

function mountDialog() {
  return mountWithApp(UserImportDialog, {
    props: { resource: resourceByKey('users')!, modelValue: true },
  })
}

describe('importing users from a CSV file', () => {
  it('sends only the good rows once asked, and maps the service’s refusals to file rows', async () => {
    fake.handle('api.call', (p: { op: string }) =>
      p.op === 'users.import'
        ? answer({
            created: 1,
            failed: 1,
            users: [{ id: 'usr-100', email: 'a@example.test' }],
            errors: [
              { row: 2, email: 'c@example.test', messages: { email: ['has already been taken'] } },
            ],
          })
        : new Fail({ code: 'INTERNAL', message: `unexpected ${p.op}` }),
    )
    mountDialog()
    await flushPromises()
    await choose('email,role\na@example.test,analyst\nb@,analyst\nc@example.test,Manager\n')
    expect(theTestId('import-summary').textContent).toContain(
      '2 rows ready, 1 with errors — only the 2 will be sent.',
    )
    // nothing went to the service while reading the file
    expect(apiCalls(fake).filter((c) => c.op === 'users.import')).toHaveLength(0)

    await click('import-send')
    await flushPromises()
    expect(apiCalls(fake).find((c) => c.op === 'users.import')?.input).toEqual({
      body: {
        users: [
          { email: 'a@example.test', role: 'analyst' },
          { email: 'c@example.test', role: 'manager' },
        ],
      },
    })
    expect(theTestId('import-result-summary').textContent).toContain(
      'Created 1 user; the service refused 1.',
    )
    expect(byTestId('import-refused').map((e) => e.textContent?.trim())).toEqual([
      'Row 3 (c@example.test): email has already been taken',
    ])
  })

  it('lets an administrator import into another organization', async () => {
    fake.handle('api.call', (p: { op: string }) => {
      if (p.op === 'user.permissions')
        return answer({ role: 'administrator', permissions: ['organizations.read', 'users.write'] })
      if (p.op === 'organizations.list') return listAnswer('org', 2)
      if (p.op === 'users.import')
        return answer({
          created: 1,
          failed: 0,
          users: [{ id: 'u', email: 'a@x.test' }],
          errors: [],
        })
      return new Fail({ code: 'INTERNAL', message: `unexpected ${p.op}` })
    })
    mountDialog()
    await flushPromises()
    document
      .querySelector<HTMLElement>('[data-testid="import-dialog"] .el-select__wrapper')!
      .click()
    await flushPromises()
    const option = [...document.querySelectorAll<HTMLElement>('.el-select-dropdown__item')].find(
      (o) => o.textContent?.includes('org 2'),
    )
    option!.click()
    await flushPromises()
    await choose('email,role\na@x.test,analyst\n')
    await click('import-send')
    expect(apiCalls(fake).find((c) => c.op === 'users.import')?.input).toEqual({
      body: { organization_id: 'org-2', users: [{ email: 'a@x.test', role: 'analyst' }] },
    })
  })

  it('refuses a file it cannot import and sends nothing', async () => {
    mountDialog()
    await flushPromises()
    await choose('name,role\nAna,analyst\n')
    expect(theTestId('import-file-problem').textContent).toContain('email is missing')
    expect(theTestId<HTMLButtonElement>('import-send').disabled).toBe(true)
    await choose('x'.repeat(1024 * 1024 + 1), 'huge.csv')
    expect(theTestId('import-file-problem').textContent).toContain('up to 1 MiB')
    expect(apiCalls(fake).filter((c) => c.op === 'users.import')).toHaveLength(0)
  })
})
