// JSON nested deeper than MAX_JSON_DEPTH is told apart before anything recursive reads it.
import { describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH, textNestsDeeper, valueNestsDeeper } from './json-depth'

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

describe('textNestsDeeper', () => {
  it('measures arrays and objects, not brackets inside strings', () => {
    expect(textNestsDeeper(nested(MAX_JSON_DEPTH))).toBe(false)
    expect(textNestsDeeper(nested(MAX_JSON_DEPTH + 1))).toBe(true)
    expect(textNestsDeeper('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false)
    expect(textNestsDeeper('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true)
    expect(textNestsDeeper(`{"s":"${'['.repeat(500)}"}`)).toBe(false)
    expect(textNestsDeeper(`{"s":"\\"${'{'.repeat(500)}"}`)).toBe(false)
    expect(textNestsDeeper(nested(100_000))).toBe(true)
  })
})

describe('valueNestsDeeper', () => {
  it('measures a parsed value of any depth without recursion', () => {
    expect(valueNestsDeeper(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(false)
    expect(valueNestsDeeper(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe(true)
    expect(valueNestsDeeper(JSON.parse(nested(100_000)))).toBe(true)
    expect(valueNestsDeeper({ a: { b: [1, { c: 2 }] } }, 4)).toBe(false)
    expect(valueNestsDeeper({ a: { b: [1, { c: 2 }] } }, 3)).toBe(true)
    expect(valueNestsDeeper('text')).toBe(false)
  })
})
