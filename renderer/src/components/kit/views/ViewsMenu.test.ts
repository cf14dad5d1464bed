// "Save this list" (issue 36 §4 and §5): a form dialog of the kit (Enter saves), whose typed name
// main holds while it is open (a reload opens it again as it was), that says before and at the
// moment of saving when the view is only kept until ScanDesk closes (no keychain), and never lists
// a view main did not keep.
import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { KEPT_IN_MEMORY } from '@contract/kept'
import type { Kept } from '@contract/kept'
import { resourceByKey, type ResourceDef } from '@/resources'
import { useSavedViewsStore } from '@/stores/savedViews'
import { useTwoAccounts } from '@/test/composables'
import { mountWithApp } from '@/test/mountApp'
import { byTestId, formSettled, inputOf, settle, shown } from '@/test/dom'
import { serveDrafts, type StoredDrafts } from '@/test/fakeDrafts'
import { Fail } from '@/test/fakeScandesk'
import ViewsMenu from './ViewsMenu.vue'

let stored: StoredDrafts = {}
let kept: Kept = 'disk'
let refuse = false
const fake = useTwoAccounts((f) => {
  kept = 'disk'
  refuse = false
  stored = serveDrafts(f, {
    savedAt: (n) => `2030-01-01T00:00:${String(n).padStart(2, '0')}Z`,
    kept: () => kept,
  })
})

const DIALOG_SLOT = 'acct-aaaa/dialog/save-view-vulnerabilities'
const resource = resourceByKey('vulnerabilities') as ResourceDef

async function mountMenu() {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/vulnerabilities', name: 'vulnerabilities', component: { render: () => null } },
    ],
  })
  await router.push('/vulnerabilities?severity=high')
  const wrapper = mountWithApp(ViewsMenu, { props: { resource }, global: { plugins: [router] } })
  await flushPromises()
  return wrapper
}

/** Waits until the name dialog (a lazy chunk) is on screen. */
const dialogShown = () =>
  vi.waitFor(() => expect(shown('view-name-dialog')).toBe(true), { timeout: 5000 })

/** Chooses "Save as a view…" in the menu (what a click on it sends). */
async function chooseSave(wrapper: Awaited<ReturnType<typeof mountMenu>>): Promise<void> {
  wrapper.findComponent({ name: 'ElDropdown' }).vm.$emit('command', 'save')
  await dialogShown()
  await settle()
}

async function type(name: string): Promise<void> {
  const input = inputOf('view-name-input')
  input.value = name
  input.dispatchEvent(new Event('input'))
  await flushPromises()
}

function pressEnter(): void {
  inputOf('view-name-input').dispatchEvent(
    new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }),
  )
}

const messages = () => [...document.querySelectorAll('.el-message')].map((m) => m.textContent)

describe('saving a list as a view', () => {
  it('saves on Enter in the name, and lets go of what the dialog held', async () => {
    const wrapper = await mountMenu()
    await chooseSave(wrapper)
    await type('Criticals')
    expect(stored[DIALOG_SLOT]?.data).toEqual({ name: 'Criticals' })
    pressEnter()
    await formSettled()
    await settle()
    expect(stored['acct-aaaa'].data).toMatchObject({
      views: [{ name: 'Criticals', resource: 'vulnerabilities', query: { severity: 'high' } }],
    })
    expect(messages().join()).toContain('Saved the view “Criticals”.')
    expect(messages().join()).not.toContain(KEPT_IN_MEMORY)
    expect(stored[DIALOG_SLOT]).toBeUndefined()
    expect(byTestId('view-name-note')).toHaveLength(0)
  })

  it('opens again as it was after a reload', async () => {
    stored[DIALOG_SLOT] = { data: { name: 'Half typ' }, savedAt: '2030-01-01T00:00:00Z' }
    await mountMenu()
    await dialogShown()
    expect(inputOf('view-name-input').value).toBe('Half typ')
  })

  it('says before and when saving that the view is kept only until ScanDesk closes', async () => {
    kept = 'memory'
    fake.emit('keychain.status', { available: false, message: 'No keychain.', advice: null })
    const wrapper = await mountMenu()
    await chooseSave(wrapper)
    expect(byTestId('view-name-note')[0]?.textContent).toMatch(/kept in memory until ScanDesk/)
    await type('Offline triage')
    pressEnter()
    await formSettled()
    await settle()
    expect(messages().join()).toContain(`Saved the view “Offline triage”: ${KEPT_IN_MEMORY}.`)
    expect(useSavedViewsStore().keptInMemory).toBe(true)
  })

  it('stays open with main’s words when the view was not kept, and lists nothing', async () => {
    refuse = true
    fake.handle('drafts.save', (p: { kind: string; data: unknown }) => {
      if (p.kind === 'dialog') return { savedAt: '2030-01-01T00:00:00Z', kept: 'memory' }
      return refuse
        ? new Fail({ code: 'UNKNOWN_ACCOUNT', message: 'This account is no longer in ScanDesk.' })
        : { savedAt: '2030-01-01T00:00:00Z', kept: 'disk' }
    })
    const wrapper = await mountMenu()
    await chooseSave(wrapper)
    await type('Lost')
    pressEnter()
    await formSettled()
    await settle()
    expect(shown('view-name-dialog')).toBe(true)
    expect(document.body.textContent).toContain('This account is no longer in ScanDesk.')
    expect(useSavedViewsStore().views).toEqual([])
  })
})
