import { computed } from 'vue'
import { operations } from '@contract/catalog'
import { useRecordNames } from '@/composables/recordNames'
import { nameText } from '@/data/recordNames'
import { LIBRARY_NAV, visibleGroups } from '@/navigation'
import { detailRoute, resourceByKey } from '@/resources'
import { BUILT_GROUPS, NOT_A_PAGE } from '@/resources'
import { useAccountDialogsStore } from '@/stores/accountDialogs'
import { useAccountsStore } from '@/stores/accounts'
import { useAppStore } from '@/stores/app'
import { useRecentRecordsStore } from '@/stores/recentRecords'
import { useSavedViewsStore } from '@/stores/savedViews'
import { useSignInStore } from '@/stores/signIn'
import { matchesText, type PaletteItem, type PaletteSourceFactory } from './types'

/** Keeps the items whose label (or `words`) finds the typed text. */
function filtered(text: string, items: (PaletteItem & { words?: string })[]): PaletteItem[] {
  return items
    .filter((item) => matchesText(text, item.label, item.detail, item.words))
    .map(({ words: _words, ...item }) => item)
}

/** The screens of the sidebar the window's account has (its release), and the app's own. */
export const screenSource: PaletteSourceFactory = () => {
  const app = useAppStore()
  const screens = computed<(PaletteItem & { words?: string })[]>(() => [
    { key: 'dashboard', label: 'Dashboard', to: '/dashboard' },
    ...visibleGroups(app.account?.release, operations)
      .filter((g) => BUILT_GROUPS.has(g.group) && !NOT_A_PAGE.includes(g.group))
      .map((g) => ({ key: g.group, label: g.label, to: g.path, words: g.group })),
    { key: 'library', label: LIBRARY_NAV.label, to: LIBRARY_NAV.path, words: 'library reports' },
    { key: 'outbox', label: 'Outbox', to: '/outbox', words: 'queued waiting' },
  ])
  return {
    mode: 'local',
    key: 'screens',
    heading: 'Screens',
    items: (text) => filtered(text, screens.value),
  }
}

/** What can be done from anywhere: start something, change the connection, add or switch accounts. */
export const actionSource: PaletteSourceFactory = () => {
  const app = useAppStore()
  const accounts = useAccountsStore()
  const dialogs = useAccountDialogsStore()
  const signIn = useSignInStore()
  const actions = computed<(PaletteItem & { words?: string })[]>(() => {
    const current = app.accountId
    const list: (PaletteItem & { words?: string })[] = [
      { key: 'new-scan', label: 'New scan…', to: { name: 'scan-wizard' }, words: 'wizard run' },
      { key: 'new-saq', label: 'New questionnaire…', to: { name: 'saq-start' }, words: 'saq pci' },
      app.workOffline
        ? { key: 'work-online', label: 'Work online', run: () => app.setWorkOffline(false) }
        : { key: 'work-offline', label: 'Work offline', run: () => app.setWorkOffline(true) },
      { key: 'add-account', label: 'Add account…', run: () => dialogs.openAddAccount() },
      { key: 'open-link', label: 'Open a ScanDesk link…', run: () => signIn.openLinkDialog() },
    ]
    if (current) {
      list.push(
        {
          key: 'add-user',
          label: 'Add another user of this service…',
          words: 'account sign in',
          run: () => dialogs.openAddAccount(current),
        },
        { key: 'check-now', label: 'Check the connection now', run: () => app.checkNow(current) },
      )
    }
    for (const a of accounts.accounts)
      if (a.id !== current)
        list.push({
          key: `switch:${a.id}`,
          label: `Switch to ${a.label}`,
          detail: a.username || a.baseUrl,
          words: 'account',
          run: () => app.switchTo(a.id),
        })
    return list
  })
  return {
    mode: 'local',
    key: 'actions',
    heading: 'Actions',
    items: (text) => filtered(text, actions.value),
  }
}

/** The record pages this account opened lately, by name (docs/decisions.md, "Command palette"). */
export const recentSource: PaletteSourceFactory = () => {
  const app = useAppStore()
  const recent = useRecentRecordsStore()
  const refs = computed(() => recent.of(app.accountId).filter((r) => resourceByKey(r.kind)))
  const { nameOf } = useRecordNames(refs)
  return {
    mode: 'local',
    key: 'recent',
    heading: 'Recently opened',
    items: (text) =>
      refs.value.flatMap(({ kind, id }) => {
        const resource = resourceByKey(kind)!
        const label = nameText(id, nameOf(kind, id), `${resource.noun} ${id}`)
        const noun = resource.noun.charAt(0).toUpperCase() + resource.noun.slice(1)
        if (!matchesText(text, label, noun)) return []
        return [{ key: `${kind}:${id}`, label, detail: noun, to: detailRoute(resource, id) }]
      }),
  }
}

/** The window's account's saved views of its lists, each opening its list as it was saved. */
export const savedViewSource: PaletteSourceFactory = () => {
  const views = useSavedViewsStore()
  const items = computed<(PaletteItem & { words?: string })[]>(() =>
    views.views.map((view) => ({
      key: view.id,
      label: view.name,
      detail: resourceByKey(view.resource)?.plural ?? view.resource,
      to: views.routeOf(view),
      words: 'view saved',
    })),
  )
  return {
    mode: 'local',
    key: 'views',
    heading: 'Saved views',
    items: (text) => filtered(text, items.value),
  }
}
