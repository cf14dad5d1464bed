import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { useAppStore } from '@/stores/app'
import { mountScreen } from '@/test/composables'
import { byTestId, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { browserAppInfo, settingsOf } from '@/test/fixtures'
import DownloadSettingsDialog from './DownloadSettingsDialog.vue'

const settings = settingsOf()
let current: string | null = null
/** What the OS folder dialog answers (Electron): a folder, or null when it was closed. */
let picked: string | null = null

const fake = useFakeApp({
  store: 'app',
  setup: (fake) => {
    current = null
    picked = null
    fake.handle('settings.get', () => settings)
    fake.handle('files.getFolder', () => ({ folder: current }))
    fake.handle('files.folderChoices', () => ({
      home: '/home/me',
      recent: [],
      homeFolders: ['Documents', 'Reports'],
    }))
    fake.handle('files.setFolder', (p: { folder?: string }) => {
      current = p.folder ?? picked ?? current
      return { folder: current }
    })
  },
})
afterEach(() => {
  document.body.innerHTML = ''
})

async function openDialog(mode: 'browser' | 'electron') {
  if (mode === 'browser') fake.handle('app.info', browserAppInfo)
  await useAppStore().load()
  mountScreen(DownloadSettingsDialog, { props: { modelValue: true } })
  await flushPromises()
}
const saved = () => byTestId('settings-folder-saved')[0]?.textContent?.trim() ?? null

describe('the download settings', () => {
  it('browser mode: offers the home folder’s subfolders and says where downloads now go', async () => {
    await openDialog('browser')
    expect(saved()).toBeNull()
    const reports = byTestId('folder-choice-home').find((r) => r.textContent?.trim() === 'Reports')!
    reports.querySelector('input')!.click()
    await flushPromises()
    theTestId('settings-folder-save').click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'files.setFolder')?.payload).toEqual({
      accountId: 'acct-aaaa',
      folder: '/home/me/Reports',
    })
    expect(saved()).toMatch(/^Saved: downloads of .+ go to \/home\/me\/Reports\.$/)
    expect(theTestId('settings-folder').textContent?.trim()).toBe('/home/me/Reports')
  })

  it('desktop: confirms the folder chosen in the OS dialog, and nothing when it was closed', async () => {
    await openDialog('electron')
    const choose = [...document.querySelectorAll('button')].find(
      (b) => b.textContent?.trim() === 'Choose…',
    )!
    choose.click()
    await flushPromises()
    expect(saved()).toBeNull()
    picked = '/home/me/Scans'
    choose.click()
    await flushPromises()
    expect(saved()).toMatch(/go to \/home\/me\/Scans\.$/)
  })
})
