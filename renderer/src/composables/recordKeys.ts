import { ElMessage } from 'element-plus'
import { useRouter } from 'vue-router'
import { detailRoute, type ResourceDef } from '@/resources'
import { useAppStore } from '@/stores/app'
import { useListTrailStore } from '@/stores/listTrail'
import { onShortcut } from './shortcuts'

/**
 * On a record's page, n and p open the next and previous record of the list it was opened from
 * (the list's next or previous page read when needed); where there is none, a short message says
 * why. Silent while typing or with a dialog open (shortcutSilenced).
 */
export function useRecordKeys(resource: () => ResourceDef, id: () => string): void {
  const router = useRouter()
  const app = useAppStore()
  const trails = useListTrailStore()
  let going = false

  async function go(step: 1 | -1): Promise<void> {
    if (going) return
    going = true
    try {
      const next = await trails.neighbour(app.accountId, resource().key, id(), step)
      if ('id' in next) await router.push(detailRoute(resource(), next.id))
      else ElMessage.info(next.none)
    } catch (e) {
      const why = e instanceof Error ? ` ${e.message}` : ''
      ElMessage.error(
        `The list’s ${step === 1 ? 'next' : 'previous'} page could not be read.${why}`,
      )
    } finally {
      going = false
    }
  }
  onShortcut(['n'], () => void go(1))
  onShortcut(['p'], () => void go(-1))
}
