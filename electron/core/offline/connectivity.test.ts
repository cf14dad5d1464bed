import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { AppFailure, type AppError } from '@contract/errors'
import type { Connectivity } from '@contract/offline'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CoreEvents } from '../events'
import { openDatabase, type Db } from '../store/database'
import { SettingsRepo } from '../store/settings-repo'
import {
  ConnectivityMonitor,
  isUnreachable,
  WORK_OFFLINE_KEY,
  type ConnectivityDeps,
} from './connectivity'

const A = 'acc-00000001'
const B = 'acc-00000002'
const START = new Date('2025-06-01T10:00:00.000Z')

let dir: string
let db: Db
let settings: SettingsRepo
let events: CoreEvents
let changes: Connectivity[]
let modes: { workOffline: boolean; network: boolean | null }[]
let monitors: ConnectivityMonitor[]

/** What the fake probe answers next, per account (null: answered). */
let answers: Map<string, AppFailure | null>
let probed: string[]

function failure(error: AppError): AppFailure {
  return new AppFailure(error)
}
const refused = (): AppFailure =>
  failure({ code: 'OFFLINE', message: 'The service could not be reached.' })

function probe(accountId: string): Promise<AppFailure | null> {
  probed.push(accountId)
  return Promise.resolve(answers.get(accountId) ?? null)
}

function monitor(over: Partial<ConnectivityDeps> = {}): ConnectivityMonitor {
  const m = new ConnectivityMonitor({
    events,
    settings,
    probe,
    signedIn: () => true,
    backoff: { baseMs: 1_000, maxMs: 8_000 },
    random: () => 1,
    ...over,
  })
  monitors.push(m)
  return m
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(START)
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-connectivity-'))
  db = openDatabase(dir)
  settings = new SettingsRepo(db)
  events = new CoreEvents()
  changes = []
  modes = []
  monitors = []
  answers = new Map()
  probed = []
  events.on('connectivity', (c) => changes.push(c))
  events.on('connectivity.mode', (m) => modes.push(m))
})

afterEach(() => {
  for (const m of monitors) m.close()
  vi.useRealTimers()
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('isUnreachable', () => {
  it.each([
    ['OFFLINE', undefined],
    ['TIMEOUT', undefined],
    ['SERVER', 502],
    ['SERVER', 503],
    ['SERVER', 504],
  ] as const)('is true for %s %s', (code, status) => {
    expect(isUnreachable(failure({ code, message: 'x', status }))).toBe(true)
  })

  it.each([
    ['SERVER', 500],
    ['SERVER', undefined],
    ['NOT_FOUND', 404],
    ['VALIDATION', 422],
    ['UNAUTHORIZED', 401],
    ['KEYCHAIN_UNAVAILABLE', undefined],
  ] as const)('is false for %s %s', (code, status) => {
    expect(isUnreachable(failure({ code, message: 'x', status }))).toBe(false)
  })

  it('is false for anything that is not an AppFailure', () => {
    expect(isUnreachable(new Error('OFFLINE'))).toBe(false)
    expect(isUnreachable({ error: { code: 'OFFLINE', message: 'x' } })).toBe(false)
    expect(isUnreachable(null)).toBe(false)
  })
})

describe('state from outcomes', () => {
  it('is "checking" before any outcome, never "online"', () => {
    const m = monitor()
    const c = m.get(A)
    expect(c).toMatchObject({
      accountId: A,
      state: 'checking',
      online: false,
      message: null,
      nextCheckAt: null,
    })
    expect(m.knownUnreachable(A)).toBe(false)
    expect(m.overview([A, B]).accounts.map((x) => x.state)).toEqual(['checking', 'checking'])
    expect(changes).toEqual([])
    expect(probed).toEqual([])
  })

  it('is "online" once a request was answered', () => {
    const m = monitor()
    m.report(A, { answered: true })
    expect(m.get(A)).toMatchObject({
      state: 'online',
      online: true,
      message: null,
      nextCheckAt: null,
      checkedAt: START.toISOString(),
    })
    expect(m.knownUnreachable(A)).toBe(false)
  })

  it('is "unreachable" with the message and the next check when a request was not answered', () => {
    const m = monitor()
    vi.setSystemTime(new Date(START.getTime() + 5_000))
    m.report(A, { answered: false, message: 'Connection refused.' })
    const c = m.get(A)
    expect(c).toMatchObject({
      state: 'unreachable',
      online: false,
      message: 'Connection refused.',
      checkedAt: new Date(START.getTime() + 5_000).toISOString(),
      nextCheckAt: new Date(START.getTime() + 6_000).toISOString(),
    })
    expect(m.knownUnreachable(A)).toBe(true)
    expect(m.knownUnreachable(B)).toBe(false)
    // Another account is not affected.
    expect(m.get(B).state).toBe('checking')
  })

  it('announces changes only', () => {
    const m = monitor()
    m.report(A, { answered: true })
    m.report(A, { answered: true })
    m.report(A, { answered: false, message: 'Connection refused.' })
    m.report(A, { answered: false, message: 'Connection refused.' })
    m.report(A, { answered: false, message: 'Timed out.' })
    m.report(A, { answered: true })
    expect(changes.map((c) => [c.accountId, c.state, c.message])).toEqual([
      [A, 'online', null],
      [A, 'unreachable', 'Connection refused.'],
      [A, 'unreachable', 'Timed out.'],
      [A, 'online', null],
    ])
  })

  it('is "signed-out" when the account has no session, and announces it on sessionChanged', () => {
    let session = true
    const m = monitor({ signedIn: (id) => (id === A ? session : null) })
    m.report(A, { answered: true })
    expect(m.get(A).state).toBe('online')
    session = false
    m.sessionChanged(A)
    expect(m.get(A)).toMatchObject({ state: 'signed-out', online: false })
    expect(changes.at(-1)).toMatchObject({ accountId: A, state: 'signed-out' })
    // An account that is gone (null) is not "signed out".
    m.report(B, { answered: true })
    expect(m.get(B).state).toBe('online')
  })
})

describe('probes', () => {
  it('backs off by doubling up to the ceiling, and stops once a probe answers', async () => {
    const m = monitor()
    answers.set(A, refused())
    m.report(A, { answered: false, message: 'Connection refused.' })
    // Waits 1 s, 2 s, 4 s, 8 s, 8 s (random fixed at 1: the full ceiling).
    let at = START.getTime()
    for (const wait of [1_000, 2_000, 4_000, 8_000, 8_000]) {
      expect(m.get(A).nextCheckAt).toBe(new Date(at + wait).toISOString())
      const before = probed.length
      await vi.advanceTimersByTimeAsync(wait - 1)
      expect(probed.length).toBe(before)
      await vi.advanceTimersByTimeAsync(1)
      expect(probed.length).toBe(before + 1)
      at += wait
    }
    expect(m.get(A)).toMatchObject({ state: 'unreachable', message: refused().message })

    answers.set(A, null)
    await vi.advanceTimersByTimeAsync(8_000)
    expect(probed).toHaveLength(6)
    expect(m.get(A)).toMatchObject({ state: 'online', nextCheckAt: null })
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(probed).toHaveLength(6)
  })

  it('waits between half and all of the ceiling (jitter)', () => {
    const m = monitor({ random: () => 0 })
    m.report(A, { answered: false, message: 'Connection refused.' })
    expect(m.get(A).nextCheckAt).toBe(new Date(START.getTime() + 500).toISOString())
  })

  it('check() probes now and decides the state from the answer', async () => {
    const m = monitor()
    answers.set(A, failure({ code: 'SERVER', status: 503, message: 'Service unavailable.' }))
    const first = await m.check(A)
    expect(first).toMatchObject({ state: 'unreachable', message: 'Service unavailable.' })
    answers.set(A, null)
    expect(await m.check(A)).toMatchObject({ state: 'online' })
    expect(probed).toEqual([A, A])
  })

  it('shares one probe between concurrent checks', async () => {
    const m = monitor()
    const [x, y] = await Promise.all([m.check(A), m.check(A)])
    expect(probed).toEqual([A])
    expect(x.state).toBe('online')
    expect(y.state).toBe('online')
  })

  it('keeps the state but updates the message when the probe could not even try', async () => {
    const m = monitor()
    m.report(A, { answered: false, message: 'Connection refused.' })
    const before = changes.length
    answers.set(
      A,
      failure({ code: 'KEYCHAIN_UNAVAILABLE', message: 'The keychain is not available.' }),
    )
    const c = await m.check(A)
    expect(c).toMatchObject({ state: 'unreachable', message: 'The keychain is not available.' })
    expect(changes.length).toBe(before + 1)
    expect(changes.at(-1)).toMatchObject({
      state: 'unreachable',
      message: 'The keychain is not available.',
    })

    // Before any answer the state stays "checking", with the reason shown.
    const m3 = monitor()
    answers.set(
      'acc-00000003',
      failure({ code: 'KEYCHAIN_UNAVAILABLE', message: 'The keychain is not available.' }),
    )
    expect(await m3.check('acc-00000003')).toMatchObject({
      state: 'checking',
      message: 'The keychain is not available.',
    })

    // From "online" it stays online and does not call it unreachable.
    const m2 = monitor()
    m2.report(B, { answered: true })
    answers.set(
      B,
      failure({ code: 'KEYCHAIN_UNAVAILABLE', message: 'The keychain is not available.' }),
    )
    expect((await m2.check(B)).state).toBe('online')
  })

  it('nudge() schedules a probe only while unreachable and none is pending', async () => {
    const m = monitor()
    m.report(A, { answered: true })
    m.nudge(A)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(probed).toEqual([])

    // Unreachable, then a probe that could not try: nothing pending until nudged.
    m.report(A, { answered: false, message: 'Connection refused.' })
    answers.set(A, failure({ code: 'KEYCHAIN_UNAVAILABLE', message: 'No keychain.' }))
    await m.check(A)
    expect(m.get(A).nextCheckAt).toBeNull()
    answers.set(A, null)
    m.nudge(A)
    expect(m.get(A).nextCheckAt).not.toBeNull()
    m.nudge(A)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(probed).toEqual([A, A])
    expect(m.get(A).state).toBe('online')
  })

  it('close() stops every pending probe', async () => {
    const m = monitor()
    answers.set(A, refused())
    m.report(A, { answered: false, message: 'Connection refused.' })
    m.report(B, { answered: false, message: 'Connection refused.' })
    m.close()
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(probed).toEqual([])
    // Outcomes after close change nothing.
    m.report(A, { answered: true })
    expect(m.get(A).state).toBe('unreachable')
  })
})

describe('the network', () => {
  it('no network: "offline" everywhere, requests blocked, no probe; back: every account probed', async () => {
    const m = monitor()
    m.report(A, { answered: true })
    m.report(B, { answered: false, message: 'Connection refused.' })
    expect(m.blockedReason()).toBeNull()

    expect(m.get(B).nextCheckAt).not.toBeNull()
    const overview = m.setNetwork(false)
    expect(overview.network).toBe(false)
    // No check is announced that will not run.
    expect(m.get(B).nextCheckAt).toBeNull()
    expect(overview.accounts.map((c) => [c.accountId, c.state])).toEqual([
      [A, 'offline'],
      [B, 'offline'],
    ])
    expect(m.get(A)).toMatchObject({
      online: false,
      message: 'This computer has no network connection.',
    })
    expect(m.blockedReason()).toBe('This computer has no network connection.')
    expect(m.knownUnreachable(A)).toBe(true)
    expect(modes).toEqual([{ workOffline: false, network: false }])
    expect(changes.slice(-2).map((c) => [c.accountId, c.state])).toEqual([
      [A, 'offline'],
      [B, 'offline'],
    ])

    // B's pending probe, check() and new failures send nothing while offline.
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect((await m.check(A)).state).toBe('offline')
    m.report(A, { answered: false, message: 'Connection refused.' })
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(probed).toEqual([])

    m.setNetwork(true)
    expect(modes.at(-1)).toEqual({ workOffline: false, network: true })
    expect([...probed].sort()).toEqual([A, B])
    await vi.advanceTimersByTimeAsync(0)
    expect(m.get(A).state).toBe('online')
    expect(m.get(B).state).toBe('online')
    expect(m.blockedReason()).toBeNull()
  })

  it('does nothing when told the same network state again', () => {
    const m = monitor()
    m.get(A)
    m.setNetwork(true)
    expect(probed).toEqual([A])
    m.setNetwork(true)
    expect(probed).toEqual([A])
    expect(modes).toEqual([{ workOffline: false, network: true }])
  })
})

describe('"Work offline"', () => {
  it('puts every account in "work-offline", blocks requests, is kept in settings', () => {
    const m = monitor()
    m.report(A, { answered: true })
    m.report(B, { answered: false, message: 'Connection refused.' })
    m.setWorkOffline(true)
    for (const id of [A, B])
      expect(m.get(id)).toMatchObject({
        state: 'work-offline',
        online: false,
        nextCheckAt: null,
        message: '“Work offline” is on: ScanDesk sends no request.',
      })
    expect(m.blockedReason()).toBe('“Work offline” is on: ScanDesk sends no request.')
    expect(m.overview([]).workOffline).toBe(true)
    expect(modes).toEqual([{ workOffline: true, network: null }])
    expect(changes.slice(-2).map((c) => [c.accountId, c.state])).toEqual([
      [A, 'work-offline'],
      [B, 'work-offline'],
    ])
    expect(settings.get(WORK_OFFLINE_KEY, null)).toBe(true)

    // A new monitor over the same settings starts with it on.
    const next = monitor()
    expect(next.get(A).state).toBe('work-offline')
    expect(next.blockedReason()).not.toBeNull()
    expect(next.overview([]).workOffline).toBe(true)
  })

  it('wins over "signed-out" and "offline"', () => {
    const m = monitor({ signedIn: () => false })
    m.setNetwork(false)
    m.setWorkOffline(true)
    expect(m.get(A).state).toBe('work-offline')
  })

  it('runs no probe while on; turning it off probes every account', async () => {
    const m = monitor()
    answers.set(B, refused())
    m.report(A, { answered: true })
    m.report(B, { answered: false, message: 'Connection refused.' })
    m.setWorkOffline(true)
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    const c = await m.check(A)
    expect(c.state).toBe('work-offline')
    m.report(B, { answered: false, message: 'Connection refused.' })
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(probed).toEqual([])

    m.setWorkOffline(false)
    expect(settings.get(WORK_OFFLINE_KEY, null)).toBe(false)
    expect(modes.at(-1)).toEqual({ workOffline: false, network: null })
    expect([...probed].sort()).toEqual([A, B])
    expect(m.blockedReason()).toBeNull()
    await vi.advanceTimersByTimeAsync(0)
    expect(m.get(A).state).toBe('online')
    expect(m.get(B).state).toBe('unreachable')

    // A new monitor over the same settings starts with it off.
    expect(monitor().get(A).state).toBe('checking')
  })

  it('setting it to what it already is changes and announces nothing', () => {
    const m = monitor()
    m.get(A)
    m.setWorkOffline(false)
    expect(modes).toEqual([])
    expect(changes).toEqual([])
    expect(probed).toEqual([])
    expect(settings.get(WORK_OFFLINE_KEY, null)).toBeNull()
  })
})

describe('onOnline', () => {
  it('fires once per transition into online, not on repeated answers', async () => {
    const m = monitor()
    const seen: string[] = []
    m.onOnline((id) => seen.push(id))
    m.report(A, { answered: true })
    m.report(A, { answered: true })
    await m.check(A)
    expect(seen).toEqual([A])
    m.report(A, { answered: false, message: 'Connection refused.' })
    expect(seen).toEqual([A])
    m.report(A, { answered: true })
    expect(seen).toEqual([A, A])
    m.report(B, { answered: true })
    expect(seen).toEqual([A, A, B])
    // Back from "Work offline" counts as becoming online.
    m.setWorkOffline(true)
    m.setWorkOffline(false)
    expect(seen).toEqual([A, A, B, A, B])
  })

  it('a throwing listener does not stop the others, and unsubscribe works', () => {
    const logs: string[] = []
    const m = monitor({ log: (level, message) => logs.push(`${level}: ${message}`) })
    const seen: string[] = []
    m.onOnline(() => {
      throw new Error('boom')
    })
    const off = m.onOnline((id) => seen.push(`second ${id}`))
    m.report(A, { answered: true })
    expect(seen).toEqual([`second ${A}`])
    expect(m.get(A).state).toBe('online')
    expect(logs.some((l) => l.startsWith('error: ') && l.includes('boom'))).toBe(true)
    off()
    m.report(A, { answered: false, message: 'x' })
    m.report(A, { answered: true })
    expect(seen).toEqual([`second ${A}`])
  })
})
