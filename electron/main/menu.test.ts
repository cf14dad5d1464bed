import { describe, expect, it, vi } from 'vitest'
import type { MenuItemConstructorOptions } from 'electron'

vi.mock('electron', () => ({ Menu: { buildFromTemplate: () => ({}), setApplicationMenu() {} } }))

const { menuTemplate } = await import('./menu')

function fileMenu(isMac: boolean) {
  const onNewWindow = vi.fn()
  const onOpenLinkFromClipboard = vi.fn()
  const template = menuTemplate({ isMac, devTools: false, onNewWindow, onOpenLinkFromClipboard })
  const file = template.find((m) => m.label === 'File')
  const items = (file?.submenu ?? []) as MenuItemConstructorOptions[]
  return { items, onNewWindow, onOpenLinkFromClipboard }
}

describe('the File menu', () => {
  it('opens a link from the clipboard through main, with nothing sent to a page', () => {
    const { items, onOpenLinkFromClipboard, onNewWindow } = fileMenu(false)
    const item = items.find((i) => i.label === 'Open Link from Clipboard')
    expect(item).toBeDefined()
    ;(item?.click as () => void)()
    expect(onOpenLinkFromClipboard).toHaveBeenCalledTimes(1)
    expect(onNewWindow).not.toHaveBeenCalled()
  })

  it('ends with Quit, or Close on macOS', () => {
    expect(fileMenu(false).items.at(-1)).toEqual({ role: 'quit' })
    expect(fileMenu(true).items.at(-1)).toEqual({ role: 'close' })
  })
})
