import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'

const registered = vi.hoisted(() => ({ schemes: [] as unknown[] }))
vi.mock('electron', () => ({
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) => registered.schemes.push(...schemes),
    handle: () => {},
  },
}))

const { createAppRequestHandler, registerAppScheme } = await import('./protocol')

const root = mkdtempSync(join(tmpdir(), 'scandesk-protocol-'))
const rendererDir = join(root, 'renderer')
mkdirSync(join(rendererDir, 'assets'), { recursive: true })
writeFileSync(join(rendererDir, 'index.html'), '<title>ScanDesk</title>')
writeFileSync(join(rendererDir, 'assets', 'index.css'), 'body{}')
writeFileSync(join(root, 'package.json'), '{"secret":"outside"}')
afterAll(() => rmSync(root, { recursive: true, force: true }))

const handle = createAppRequestHandler(rendererDir)

describe('the app:// protocol', () => {
  it('registers app as a standard secure scheme', () => {
    registerAppScheme()
    expect(registered.schemes).toEqual([
      expect.objectContaining({
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ])
  })

  it('serves index.html with the strict CSP', async () => {
    const res = await handle(new Request('app://scandesk/index.html'))
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('<title>ScanDesk</title>')
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; /)
    expect(res.headers.get('content-security-policy')).toContain("form-action 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('serves assets with their content type', async () => {
    const res = await handle(new Request('app://scandesk/assets/index.css'))
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8')
  })

  it.each([
    'app://scandesk/%2e%2e%2fpackage.json',
    'app://scandesk/assets/..%2f..%2fpackage.json',
    'app://scandesk/..%5cpackage.json',
    'app://scandesk/../package.json',
  ])('refuses %s', async (url) => {
    const res = await handle(new Request(url))
    expect(res.status).toBe(404)
    expect(await res.text()).not.toContain('outside')
  })

  it('refuses hosts other than scandesk', async () => {
    const res = await handle(new Request('app://other/index.html'))
    expect(res.status).toBe(404)
  })

  it('answers 404 to a missing asset', async () => {
    expect((await handle(new Request('app://scandesk/assets/missing.js'))).status).toBe(404)
  })
})
