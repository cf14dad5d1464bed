import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { Settings } from '@contract/channels'
import type { AppError } from '@contract/errors'
import { request } from '@/bridge/bridge'

type Theme = Settings['theme']

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches
}

/** User settings kept by main; the theme is applied as `html.dark` (Element Plus dark vars). */
export const useSettingsStore = defineStore('settings', () => {
  const theme = ref<Theme>('system')
  const systemDark = ref(systemPrefersDark())
  const error = ref<AppError | null>(null)
  let inflight: Promise<void> | null = null

  const dark = computed(
    () => theme.value === 'dark' || (theme.value === 'system' && systemDark.value),
  )

  if (typeof matchMedia === 'function') {
    matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', (e) => {
      systemDark.value = e.matches
    })
  }

  watch(dark, (on) => document.documentElement.classList.toggle('dark', on), { immediate: true })

  /** Loads the settings; concurrent callers share one request. */
  function load(): Promise<void> {
    inflight ??= (async () => {
      try {
        const result = await request('settings.get', {})
        if (result.ok) theme.value = result.data.theme
        else error.value = result.error
      } finally {
        inflight = null
      }
    })()
    return inflight
  }

  /** Changes the theme at once and saves it; restores the old one when saving fails. */
  async function setTheme(next: Theme): Promise<void> {
    const previous = theme.value
    theme.value = next
    const result = await request('settings.set', { theme: next })
    if (result.ok) {
      theme.value = result.data.theme
      error.value = null
    } else {
      theme.value = previous
      error.value = result.error
    }
  }

  return { theme, dark, error, load, setTheme }
})
