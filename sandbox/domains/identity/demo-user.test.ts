import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEMO_USERS } from '../../server'
import { call, signIn, startLogged } from './testing'

describe('the demo user', () => {
  let dir: string
  let file: string

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-demo-user-'))
    file = join(dir, 'state.json')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('is an administrator of the demo organization who signs in without a second factor', async () => {
    const { sb } = await startLogged()
    try {
      expect(DEMO_USERS.find((u) => u.username === 'demo@sandbox.test')?.role).toBe('administrator')
      const answer = await signIn(sb, 'demo@sandbox.test')
      expect(answer.status).toBe(200)
      expect(typeof answer.json.token).toBe('string')
      const me = await call(sb, 'GET', '/v2/user', { token: answer.json.token })
      expect(me.json.data.attributes).toMatchObject({
        role: 'administrator',
        organization_id: 'org-001',
      })
      const permissions = await call(sb, 'GET', '/v2/user/permissions', {
        token: answer.json.token,
      })
      expect(JSON.stringify(permissions.json)).toContain('billing.write')
    } finally {
      await sb.close()
    }
  })

  it('is added to a state saved by an earlier sandbox, which is otherwise kept', async () => {
    const first = await startLogged({ dataFile: file })
    await first.sb.close()
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    const users = saved.state.collections.users as Record<string, { attributes: { email: string } }>
    const demoId = Object.keys(users).find(
      (id) => users[id].attributes.email === 'demo@sandbox.test',
    )
    expect(demoId).toBeDefined()
    delete users[demoId!]
    users['usr-001'].attributes.email = 'kept@sandbox.test'
    writeFileSync(file, JSON.stringify(saved))

    const second = await startLogged({ dataFile: file })
    try {
      expect((await signIn(second.sb, 'demo@sandbox.test')).status).toBe(200)
      expect(second.lines.some((l) => l.includes('added the demo user'))).toBe(true)
      // The saved rows stay as they were saved.
      const demo = await signIn(second.sb, 'demo@sandbox.test')
      const byAdmin = await call(second.sb, 'GET', '/v2/users/usr-001', {
        token: demo.json.token,
      })
      expect(byAdmin.json.data.attributes.email).toBe('kept@sandbox.test')
    } finally {
      await second.sb.close()
    }
  })

  it('lists the users the account panel offers as they are seeded: role, password, second factor', async () => {
    const { sb } = await startLogged()
    try {
      expect(sb.users.map((u) => u.username)).toEqual([
        'analyst@sandbox.test',
        'demo@sandbox.test',
        'manager@sandbox.test',
        'admin@sandbox.test',
        'sms@sandbox.test',
      ])
      for (const user of sb.users) {
        const answer = await signIn(sb, user.username, user.password)
        expect(answer.status, user.username).toBe(200)
        // a second factor exactly where the list says one is asked
        expect(answer.json.two_factor_required === true, user.username).toBe(
          user.twoFactor !== 'none',
        )
        if (user.twoFactor !== 'none') {
          expect(answer.json.methods, user.username).toContain(user.twoFactor)
          continue
        }
        const me = await call(sb, 'GET', '/v2/user', { token: answer.json.token })
        expect(me.json.data.attributes.role, user.username).toBe(user.role)
        expect(user.about, user.username).toContain(user.role)
      }
    } finally {
      await sb.close()
    }
  })
})
