import { afterEach, describe, expect, it } from 'vitest'
import { focusUnlessTyping } from './focus'

describe('focusUnlessTyping', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  function dialog(): { first: HTMLInputElement; second: HTMLInputElement } {
    document.body.innerHTML =
      '<div class="el-dialog" role="dialog"><input id="first"><input id="second"></div>'
    return {
      first: document.getElementById('first') as HTMLInputElement,
      second: document.getElementById('second') as HTMLInputElement,
    }
  }

  it('focuses the first field when nothing in the dialog has the caret', () => {
    const { first } = dialog()
    focusUnlessTyping(first)
    expect(document.activeElement).toBe(first)
  })

  it('leaves the caret where the user already is', () => {
    const { first, second } = dialog()
    second.focus()
    focusUnlessTyping(first)
    expect(document.activeElement).toBe(second)
  })

  it('still moves focus away from a field outside the dialog', () => {
    const { first } = dialog()
    const outside = document.createElement('input')
    document.body.appendChild(outside)
    outside.focus()
    focusUnlessTyping(first)
    expect(document.activeElement).toBe(first)
  })
})
