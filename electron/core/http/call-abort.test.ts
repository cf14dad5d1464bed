// The cheap abort wiring of JSON calls: controllers of calls that ended are used again only when
// nothing can still abort or hear them, and an account's signal gets one listener for all its
// running calls, each of which stops listening when it ends.
import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { releaseController, takeController, whenAborted } from './call-abort'

describe('a call’s controller', () => {
  it('is used again after a call that ended unaborted with nothing listening', () => {
    const first = takeController()
    releaseController(first)
    expect(takeController()).toBe(first)
  })

  it('is not used again once aborted, or while something still listens to it', () => {
    const aborted = takeController()
    aborted.abort()
    releaseController(aborted)
    const heard = takeController()
    heard.signal.addEventListener('abort', () => undefined)
    releaseController(heard)
    const next = takeController()
    expect(next).not.toBe(aborted)
    expect(next).not.toBe(heard)
    expect(next.signal.aborted).toBe(false)
  })
})

describe('the account’s signal', () => {
  it('has one listener for every running call, and aborts only those still running', () => {
    const account = new AbortController()
    const ran: string[] = []
    const stopA = whenAborted(account.signal, () => ran.push('a'))
    whenAborted(account.signal, () => ran.push('b'))
    whenAborted(account.signal, () => ran.push('c'))
    expect(getEventListeners(account.signal, 'abort')).toHaveLength(1)
    stopA()
    account.abort()
    expect(ran).toEqual(['b', 'c'])
    account.abort()
    expect(ran).toEqual(['b', 'c'])
  })

  it('aborts a call at once when it was aborted already', () => {
    const account = new AbortController()
    account.abort()
    let ran = 0
    whenAborted(account.signal, () => ran++)
    expect(ran).toBe(1)
  })
})
