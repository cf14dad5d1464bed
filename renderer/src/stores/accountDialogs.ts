import { defineStore } from 'pinia'
import { ref } from 'vue'

/**
 * The add-account dialog of the shell's account switcher, openable from elsewhere (the command
 * palette): a new service, or (`from`) another user of an account's service. The switcher shows
 * the dialog while `adding` is set.
 */
export const useAccountDialogsStore = defineStore('accountDialogs', () => {
  const adding = ref<{ from?: string } | null>(null)

  /** Opens the add-account dialog; with `from`, for another user of that account's service. */
  function openAddAccount(from?: string): void {
    adding.value = from ? { from } : {}
  }

  return { adding, openAddAccount }
})
