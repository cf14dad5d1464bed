import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { resourceByKey } from '@/resources'
import { listAnswer, useTwoAccounts } from '@/test/composables'
import { byTestId, click, inputOf, settle, typeInto } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import ConfirmHost from './ConfirmHost.vue'
import ResourceTable from './ResourceTable.vue'

let exports: Record<string, unknown>[]
/** Each export request carries its own request id (progress events, api.cancel). */
const ID = expect.stringMatching(/^r[0-9a-f]{24}$/)

const answer = (data: unknown) => ({ data: { data }, fetchedAt: '', fromCache: false })

const fake = useTwoAccounts(() => {
  exports = []
  fake.handle('api.call', (p: { op: string }) => {
    if (p.op === 'user.permissions')
      return answer({ role: 'administrator', permissions: ['organizations.read'] })
    if (p.op === 'user.organization')
      return answer({ id: 'org-1', type: 'organization', attributes: { name: 'Acme' } })
    if (p.op.endsWith('.list')) return listAnswer('O', 3)
    return new Fail({ code: 'INTERNAL', message: `unexpected ${p.op}` })
  })
})

function mountList(key: string) {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/', component: { render: () => null } }],
  })
  mountWithApp(ConfirmHost, { global: { plugins: [router] } })
  return mountWithApp(ResourceTable, {
    props: { resource: resourceByKey(key)! },
    global: { plugins: [router] },
  })
}

describe('"Export CSV…" in browser mode', () => {
  it('asks where to save (main suggests), asks before replacing, then names file and rows', async () => {
    const suggested = '/home/me/Organizations - Work - 2026-11-23.csv'
    fake.handle('csv.export', (p: Record<string, unknown>) => {
      exports.push(p)
      if (p.path === undefined) return { saved: false, suggestedPath: suggested }
      if (!p.replace) return new Fail({ code: 'CONFLICT', message: 'There is already a file.' })
      return { saved: true, path: p.path, rows: 3, escapedCells: 1 }
    })
    mountList('organizations')
    await flushPromises()
    await typeInto('resource-search', 'acme')

    await click('csv-export')
    expect(inputOf('csv-path-input').value).toBe(suggested)
    await typeInto('csv-path-input', '/home/me/orgs.csv')
    await click('csv-path-save')
    // the typed file exists: nothing is replaced until the user says so
    expect(byTestId('csv-replace-confirm-text')[0].textContent).toBe('Replace /home/me/orgs.csv?')
    await click('csv-replace-confirm')
    await settle()

    expect(exports).toEqual([
      {
        accountId: 'acct-aaaa',
        op: 'organizations.export',
        query: { sort: '-created_at', search: 'acme' },
        requestId: ID,
      },
      {
        accountId: 'acct-aaaa',
        op: 'organizations.export',
        query: { sort: '-created_at', search: 'acme' },
        path: '/home/me/orgs.csv',
        requestId: ID,
      },
      {
        accountId: 'acct-aaaa',
        op: 'organizations.export',
        query: { sort: '-created_at', search: 'acme' },
        path: '/home/me/orgs.csv',
        replace: true,
        requestId: ID,
      },
    ])
    const saved = byTestId('csv-saved')[0].textContent ?? ''
    expect(saved).toContain('Saved 3 organizations to /home/me/orgs.csv.')
    expect(saved).toContain("1 cell that looked like a formula now starts with '")

    fake.handle('csv.reveal', (p: { path: string }) => ({
      revealed: p.path === '/home/me/orgs.csv',
    }))
    await click('csv-reveal')
    expect(fake.calls.filter((c) => c.channel === 'csv.reveal').map((c) => c.payload)).toEqual([
      { path: '/home/me/orgs.csv' },
    ])
  })

  it('shows a refusal in the path dialog and keeps it open', async () => {
    fake.handle('csv.export', (p: Record<string, unknown>) =>
      p.path === undefined
        ? { saved: false, suggestedPath: '/home/me/x.csv' }
        : new Fail({ code: 'FORBIDDEN', message: 'Only inside your home folder.' }),
    )
    mountList('organizations')
    await flushPromises()
    await click('csv-export')
    await typeInto('csv-path-input', 'relative.csv')
    await click('csv-path-save')
    expect(byTestId('csv-path-problem')[0].textContent).toContain('must be an absolute path')
    await typeInto('csv-path-input', '/etc/x.csv')
    await click('csv-path-save')
    expect(byTestId('csv-path-problem')[0].textContent).toContain('Only inside your home folder.')
    expect(byTestId('csv-saved')).toHaveLength(0)
  })
})

describe('the audit log: JSON Lines, progress and Stop', () => {
  it('exports as JSON Lines, shows how far it read, and Stop cancels that export', async () => {
    let finish: (v: unknown) => void = () => {}
    fake.handle('csv.export', (p: Record<string, unknown>) => {
      exports.push(p)
      if (p.path === undefined) return { saved: false, suggestedPath: '/home/me/audit.jsonl' }
      return new Promise((resolve) => (finish = resolve))
    })
    fake.handle('api.cancel', (p: { requestId: string }) => {
      finish(new Fail({ code: 'CANCELLED', message: 'The export was cancelled.' }))
      return { cancelled: !!p.requestId }
    })
    mountList('audit')
    await flushPromises()
    expect(byTestId('csv-export')).toHaveLength(1)
    await click('jsonl-export')
    expect(inputOf('csv-path-input').value).toBe('/home/me/audit.jsonl')
    await click('csv-path-save')
    const sent = exports[1]
    expect(sent).toMatchObject({ op: 'audit.list', format: 'jsonl', path: '/home/me/audit.jsonl' })
    expect(sent.query).toEqual({ sort: '-occurred_at' })

    // another export's progress is not this one's
    fake.emit('csv.progress', { requestId: 'r-someone-else', rows: 7, total: 9 })
    await settle()
    expect(byTestId('csv-progress')).toHaveLength(0)
    fake.emit('csv.progress', { requestId: sent.requestId, rows: 100, total: 220 })
    await settle()
    expect(byTestId('csv-progress')[0].textContent).toContain('Read 100 of 220 audit events')

    await click('csv-stop')
    await settle()
    const cancels = fake.calls.filter((c) => c.channel === 'api.cancel').map((c) => c.payload)
    expect(cancels).toEqual([{ requestId: sent.requestId }])
    expect(byTestId('csv-progress')).toHaveLength(0)
    expect(byTestId('csv-saved')).toHaveLength(0)
    expect(byTestId('csv-path-problem')).toHaveLength(0)
  })
})
