import type { Ref } from 'vue'

/**
 * Runs `work` with `flag` on (a button's loading state, a form's busy state) and turns it off
 * again however the work ends, thrown or returned: the one copy of the `flag = true; try { … }
 * finally { flag = false }` of the screens' actions.
 */
export async function withBusy<T>(flag: Ref<boolean>, work: () => Promise<T>): Promise<T> {
  flag.value = true
  try {
    return await work()
  } finally {
    flag.value = false
  }
}
