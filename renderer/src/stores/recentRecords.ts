import { defineStore } from 'pinia'
import { ref } from 'vue'

/** A record page the user opened: the registry resource's key and the record's id. */
export interface RecentRecord {
  kind: string
  id: string
}

/** How many records are remembered per account. */
export const RECENT_MAX = 12

/**
 * The record pages opened in this window, newest first, per account (docs/decisions.md, "Command
 * palette"): what the palette offers before anything is typed. Kept for the run only.
 */
export const useRecentRecordsStore = defineStore('recentRecords', () => {
  const byAccount = ref<Record<string, RecentRecord[]>>({})

  /** Notes that `accountId`'s record `kind`/`id` was opened (moved to the front if known). */
  function opened(accountId: string, kind: string, id: string): void {
    const kept = (byAccount.value[accountId] ?? []).filter((r) => r.kind !== kind || r.id !== id)
    byAccount.value = {
      ...byAccount.value,
      [accountId]: [{ kind, id }, ...kept].slice(0, RECENT_MAX),
    }
  }

  /** The records `accountId` opened, newest first. */
  function of(accountId: string | null): readonly RecentRecord[] {
    return (accountId && byAccount.value[accountId]) || []
  }

  return { byAccount, opened, of }
})
