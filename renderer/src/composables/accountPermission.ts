import { ref } from 'vue'
import { answered } from '@/data/envelope'
import { fetchOperation } from '@/data/fetchOperation'

/**
 * Whether the signed-in user of any account (not only this window's) holds `permission`, asked
 * of that account's service on demand (`check`) and kept for the component's life. `refusal` is
 * the reason to show when they do not, or null while unknown, allowed, or unreadable: then the
 * action stays offered and the service's 403 has the last word.
 */
export function useAccountPermission(permission: string, what: string) {
  const reasons = ref<Record<string, string | null>>({})
  const asked = new Set<string>()

  async function check(accountId: string): Promise<void> {
    if (asked.has(accountId)) return
    asked.add(accountId)
    try {
      const answer = await fetchOperation(accountId, 'user.permissions', {})
      const { role, permissions } = answered(answer)
      // A service that names permissions some other way hides nothing.
      const known = permissions.some((p) => p.includes('.'))
      reasons.value = {
        ...reasons.value,
        [accountId]:
          known && !permissions.includes(permission)
            ? `Your role (${role}) may not ${what}.`
            : null,
      }
    } catch {
      asked.delete(accountId)
    }
  }

  function refusal(accountId: string): string | null {
    return reasons.value[accountId] ?? null
  }

  return { check, refusal }
}
