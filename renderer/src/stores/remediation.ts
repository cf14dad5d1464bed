import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Result } from '@contract/errors'
import {
  DEFAULT_POLICY,
  type RemediationPolicy,
  type RemediationPolicyView,
} from '@contract/remediation'
import { request } from '@/bridge/bridge'

/**
 * Each account's remediation policy (days per severity, overdue notifications), kept in main:
 * read once per account and window, replaced by each save. Until read, the defaults.
 */
export const useRemediationStore = defineStore('remediation', () => {
  const byAccount = ref<Record<string, RemediationPolicyView>>({})
  /** Accounts whose policy was asked for and answered (read or refused). */
  const settledFor = ref<Record<string, true>>({})
  const loading = new Map<string, Promise<Result<RemediationPolicyView>>>()

  /** The account's policy as last read (the defaults, unsaved, until then). */
  function policyOf(accountId: string | null): RemediationPolicy {
    return (accountId && byAccount.value[accountId]?.policy) || DEFAULT_POLICY
  }
  /** Whether the account's policy was read from main. */
  const loaded = (accountId: string | null) => !!accountId && accountId in byAccount.value
  /** Whether main answered for the account's policy (read, or refused: the defaults then). */
  const settled = (accountId: string | null) => !!accountId && accountId in settledFor.value

  /** Reads the account's policy (once; `fresh` asks again). */
  function load(accountId: string, fresh = false): Promise<Result<RemediationPolicyView>> {
    const pending = loading.get(accountId)
    if (pending && !fresh) return pending
    const p = request('remediation.get', { accountId }).then((r) => {
      if (r.ok) byAccount.value = { ...byAccount.value, [accountId]: r.data }
      else loading.delete(accountId)
      settledFor.value = { ...settledFor.value, [accountId]: true }
      return r
    })
    loading.set(accountId, p)
    return p
  }

  async function save(
    accountId: string,
    policy: RemediationPolicy,
    notify: boolean,
  ): Promise<Result<RemediationPolicyView>> {
    const r = await request('remediation.set', { accountId, policy, notify })
    if (r.ok) {
      byAccount.value = { ...byAccount.value, [accountId]: r.data }
      loading.set(accountId, Promise.resolve(r))
    }
    return r
  }

  return { byAccount, policyOf, loaded, settled, load, save }
})
