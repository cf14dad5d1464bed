import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { ChannelInput } from '@contract/channels'
import type { AppError, Result } from '@contract/errors'
import type { FileCheck, LedgerEntry } from '@contract/files'
import { on, request } from '@/bridge/bridge'
import { useDelayedFlag } from '@/utils/delayedFlag'
import { useAccountScope } from './scope'

/**
 * The file ledger as the library view shows it: by default the downloads of this window's
 * account; "All accounts" (each row names its account) or another account only when the user
 * picks it. Switching accounts empties the list at once and drops answers to loads started
 * before; a filter on the previous account moves to the new one (a filter the user set to "all
 * accounts" or to a third account stays).
 */
export const useLibraryStore = defineStore('library', () => {
  const entries = ref<LedgerEntry[]>([])
  const search = ref('')
  const accountFilter = ref<string | null>(null)
  /** True once the user chose a filter themselves (null then means "All accounts"). */
  let filterChosen = false
  const loading = ref(false)
  const loaded = ref(false)
  const error = ref<AppError | null>(null)
  const busy = ref<Record<string, 'offline' | 'online' | undefined>>({})
  const showLoading = useDelayedFlag(() => loading.value)
  let seq = 0

  const scope = useAccountScope((next, previous) => {
    const looking = loaded.value || loading.value
    seq++
    entries.value = []
    error.value = null
    loading.value = false
    busy.value = {}
    if (!filterChosen || (accountFilter.value !== null && accountFilter.value === previous))
      accountFilter.value = next
    if (looking) void load()
  })

  accountFilter.value = scope.begin()?.accountId ?? null

  /** Sets the account filter as the user chose it (null: all accounts). */
  function chooseAccount(id: string | null): void {
    filterChosen = true
    accountFilter.value = id
  }

  /** Loads the entries matching the search and account filter; older answers are dropped. */
  async function load(): Promise<void> {
    const mine = ++seq
    loading.value = true
    const input: ChannelInput<'library.list'> = {}
    if (accountFilter.value) input.accountId = accountFilter.value
    if (search.value.trim()) input.search = search.value.trim()
    const result = await request('library.list', input)
    if (mine !== seq) return // a newer load, or a switch of account, owns the list
    loading.value = false
    loaded.value = true
    if (result.ok) {
      entries.value = result.data
      error.value = null
    } else error.value = result.error
  }

  function replace(entry: LedgerEntry): void {
    entries.value = entries.value.map((e) => (e.id === entry.id ? entry : e))
  }

  /** Checks a file again: offline against the recorded hash, online against the service. */
  async function reverify(
    entryId: string,
    mode: 'offline' | 'online',
  ): Promise<Result<LedgerEntry>> {
    busy.value = { ...busy.value, [entryId]: mode }
    try {
      const result = await request('library.reverify', { entryId, mode })
      if (result.ok) replace(result.data)
      return result
    } finally {
      busy.value = { ...busy.value, [entryId]: undefined }
    }
  }

  /** Opens a file with the OS (main allows only document types inside the download folders). */
  function open(entryId: string): Promise<Result<{ opened: boolean }>> {
    return request('library.open', { entryId })
  }

  /** Shows a file in its folder. */
  function reveal(entryId: string): Promise<Result<{ revealed: boolean }>> {
    return request('library.reveal', { entryId })
  }

  /** Checks any file on disk against a report's file on the service (null: no file picked). */
  function verifyFile(
    input: ChannelInput<'library.verifyFile'>,
  ): Promise<Result<FileCheck | null>> {
    return request('library.verifyFile', input)
  }

  // Only reload when someone has looked at the library: the list is not needed before that.
  on('library.changed', () => {
    if (loaded.value) void load()
  })

  return {
    entries,
    search,
    accountFilter,
    chooseAccount,
    loading,
    loaded,
    showLoading,
    error,
    busy,
    load,
    reverify,
    open,
    reveal,
    verifyFile,
  }
})
