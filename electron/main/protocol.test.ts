import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
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
mkdirSync(join(root, 'elsewhere'))
writeFileSync(join(root, 'elsewhere', 'leak.js'), 'secret outside')
// Links planted inside the served folder: to a file outside, to a folder outside, and one that
// stays inside (served: the rule is where a path really leads, not whether it is a link).
symlinkSync(join(root, 'package.json'), join(rendererDir, 'assets', 'leak.json'))
symlinkSync(join(root, 'elsewhere'), join(rendererDir, 'assets', 'out'))
symlinkSync(join(rendererDir, 'assets', 'index.css'), join(rendererDir, 'assets', 'alias.css'))
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

  it.each([
    ['a NUL before an extension', 'app://scandesk/index.html%00.css'],
    ['a NUL in a folder name', 'app://scandesk/assets%00/index.css'],
    ['a raw NUL', 'app://scandesk/assets/index.css\u0000.js'],
    ['a NUL in an extension-less path (no app shell either)', 'app://scandesk/scans%00'],
  ])('refuses %s', async (_name, url) => {
    const res = await handle(new Request(url))
    expect(res.status).toBe(404)
    expect(await res.text()).toBe('Not found')
  })

  it.each([
    ['an absolute path after the host', `app://scandesk/${root}/package.json`],
    ['an absolute path, encoded', `app://scandesk/${encodeURIComponent(`${root}/package.json`)}`],
    ['a double slash before an absolute path', `app://scandesk//${root}/elsewhere/leak.js`],
  ])('never reads outside the folder for %s', async (_name, url) => {
    const res = await handle(new Request(url))
    expect(res.status).toBe(404)
    expect(await res.text()).not.toMatch(/outside|localhost/)
  })

  it('answers an absolute extension-less path with the app shell, never the system file', async () => {
    const res = await handle(new Request('app://scandesk//etc/passwd'))
    expect(await res.text()).toBe('<title>ScanDesk</title>')
  })

  it.each([
    ['a link to a file outside', 'app://scandesk/assets/leak.json'],
    ['a link to a folder outside', 'app://scandesk/assets/out/leak.js'],
  ])('refuses %s', async (_name, url) => {
    const res = await handle(new Request(url))
    expect(res.status).toBe(404)
    expect(await res.text()).not.toContain('outside')
  })

  it('serves a link that stays inside the folder', async () => {
    const res = await handle(new Request('app://scandesk/assets/alias.css'))
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('body{}')
  })

  it('refuses hosts other than scandesk', async () => {
    const res = await handle(new Request('app://other/index.html'))
    expect(res.status).toBe(404)
  })

  it('answers 404 to a missing asset', async () => {
    expect((await handle(new Request('app://scandesk/assets/missing.js'))).status).toBe(404)
  })
})
