// The core's side of the demo service, over a fake sandbox starter (the core never imports the
// sandbox; electron/main/demo.test.ts runs the real one).
import { describe, expect, it, vi } from 'vitest'
import { DEMO_USER, demoServiceFactory, type DemoSandbox } from './demo-service'

function fakeSandbox(users: DemoSandbox['users']) {
  const sandbox = {
    baseUrl: 'http://127.0.0.1:4567',
    apiKey: 'key-1',
    users,
    close: vi.fn(async () => {}),
  }
  const start = vi.fn(async (_options: { port: number; dataFile?: string }) => sandbox)
  return { sandbox, start }
}

describe('the demo service factory', () => {
  const demoUser = { username: DEMO_USER.username, password: DEMO_USER.password }

  it('starts the sandbox on a free port with the data file and log, and hands back the demo user', async () => {
    const { sandbox, start } = fakeSandbox([{ username: 'admin@x', password: 'p' }, demoUser])
    const log = () => {}
    const demo = await demoServiceFactory(start)({ dataFile: '/data/demo.json', log })
    expect(start).toHaveBeenCalledWith({ port: 0, dataFile: '/data/demo.json', log })
    expect(demo).toMatchObject({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      username: DEMO_USER.username,
      password: DEMO_USER.password,
    })
    await demo.close()
    expect(sandbox.close).toHaveBeenCalledTimes(1)
  })

  it('starts with fresh state when given no options', async () => {
    const { start } = fakeSandbox([demoUser])
    await demoServiceFactory(start)()
    expect(start).toHaveBeenCalledWith({ port: 0, dataFile: undefined, log: undefined })
  })

  it('closes the sandbox and says so when it has no demo user', async () => {
    const { sandbox, start } = fakeSandbox([{ username: 'admin@x', password: 'p' }])
    await expect(demoServiceFactory(start)()).rejects.toThrow(/has no demo@sandbox\.test/)
    expect(sandbox.close).toHaveBeenCalledTimes(1)
  })
})
