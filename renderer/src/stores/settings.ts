import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { ChannelInput, ChannelOutput, Settings } from '@contract/channels'
import type { AppError, Result } from '@contract/errors'
import type { CacheStatus } from '@contract/offline'
import { CACHE_MAX_BYTES } from '@contract/offline-limits'
import { request } from '@/bridge/bridge'

type Theme = Settings['theme']
type DownloadSettings = Pick<Settings, 'mismatchAction' | 'notifyOnFinish' | 'maxDownloadBytes'>

// settings.set's input schema in channels.ts names only the theme so far; the download settings
// are part of Settings, so they are sent through the same channel.
type SettingsPatch = Partial<Settings>
const sendSettings = (patch: SettingsPatch) =>
  request('settings.set', patch as ChannelInput<'settings.set'>)

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches
}

/** User settings kept by main; the theme is applied as `html.dark` (Element Plus dark vars). */
export const useSettingsStore = defineStore('settings', () => {
  const theme = ref<Theme>('system')
  const systemDark = ref(systemPrefersDark())
  const mismatchAction = ref<Settings['mismatchAction']>('quarantine')
  const notifyOnFinish = ref(true)
  /** Largest file a download may write (main stops above it), 4 GiB unless changed. */
  const maxDownloadBytes = ref(4 * 1024 ** 3)
  /** Largest offline copy of one account's answers. */
  const cacheMaxBytes = ref<number>(CACHE_MAX_BYTES.default)
  /** Kinds of the service's notifications that raise no desktop notification. */
  const mutedNotificationKinds = ref<Settings['mutedNotificationKinds']>([])
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
        if (result.ok) applyAll(result.data)
        else error.value = result.error
      } finally {
        inflight = null
      }
    })()
    return inflight
  }

  function applyAll(data: Settings): void {
    theme.value = data.theme
    if (data.mismatchAction) mismatchAction.value = data.mismatchAction
    if (typeof data.notifyOnFinish === 'boolean') notifyOnFinish.value = data.notifyOnFinish
    if (typeof data.maxDownloadBytes === 'number') maxDownloadBytes.value = data.maxDownloadBytes
    if (typeof data.cacheMaxBytes === 'number') cacheMaxBytes.value = data.cacheMaxBytes
    if (Array.isArray(data.mutedNotificationKinds))
      mutedNotificationKinds.value = data.mutedNotificationKinds
  }

  /** Saves a patch; on failure the previous values stay and the error is kept. */
  async function save(patch: SettingsPatch): Promise<boolean> {
    const result = await sendSettings(patch)
    if (result.ok) {
      applyAll(result.data)
      error.value = null
      return true
    }
    error.value = result.error
    return false
  }

  /** Saves the download settings (see `save`). */
  function setDownloads(patch: Partial<DownloadSettings>): Promise<boolean> {
    return save(patch)
  }

  /** Saves the cap of each account's offline copy (see `save`). */
  function setCacheMaxBytes(bytes: number): Promise<boolean> {
    return save({ cacheMaxBytes: bytes })
  }

  /** Turns the desktop notifications of one kind on or off (see `save`). */
  function setDesktopNotification(
    kind: Settings['mutedNotificationKinds'][number],
    on: boolean,
  ): Promise<boolean> {
    const muted = mutedNotificationKinds.value.filter((k) => k !== kind)
    return save({ mutedNotificationKinds: on ? muted : [...muted, kind] })
  }

  /** Changes the theme at once and saves it; restores the old one when saving fails. */
  async function setTheme(next: Theme): Promise<void> {
    const previous = theme.value
    theme.value = next
    const result = await sendSettings({ theme: next })
    if (result.ok) {
      theme.value = result.data.theme
      error.value = null
    } else {
      theme.value = previous
      error.value = result.error
    }
  }

  /** The download folder of an account (null: not chosen yet). */
  function downloadFolder(accountId: string): Promise<Result<ChannelOutput<'files.getFolder'>>> {
    return request('files.getFolder', { accountId })
  }

  /** Sets an account's download folder: the one given, or else the one main asks for. */
  function setDownloadFolder(
    input: ChannelInput<'files.setFolder'>,
  ): Promise<Result<ChannelOutput<'files.setFolder'>>> {
    return request('files.setFolder', input)
  }

  /** Browser mode: the folders to offer as an account's download folder (recent, home's). */
  function folderChoices(accountId: string): Promise<Result<ChannelOutput<'files.folderChoices'>>> {
    return request('files.folderChoices', { accountId })
  }

  /** What is kept of an account's answers on this computer. */
  function cacheStatus(accountId: string): Promise<Result<CacheStatus>> {
    return request('cache.status', { accountId })
  }

  /** Forgets an account's offline copy. */
  function clearCache(accountId: string): Promise<Result<CacheStatus>> {
    return request('cache.clear', { accountId })
  }

  return {
    theme,
    dark,
    mismatchAction,
    notifyOnFinish,
    maxDownloadBytes,
    cacheMaxBytes,
    mutedNotificationKinds,
    error,
    load,
    setDesktopNotification,
    setTheme,
    setDownloads,
    setCacheMaxBytes,
    downloadFolder,
    setDownloadFolder,
    folderChoices,
    cacheStatus,
    clearCache,
  }
})
