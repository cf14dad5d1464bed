// Shared pieces of the download tests: temp folders, a check that a folder holds exactly the
// expected files (no partial or temp file left), and the validity rules of a saved file name.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect } from 'vitest'
import { AppFailure, type AppError } from '@contract/errors'

/** A fresh empty folder under the OS temp folder. */
export function tempFolder(prefix = 'scandesk-files-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

/** Every entry of a folder, hidden ones included, sorted. */
export function entries(folder: string): string[] {
  return fs.readdirSync(folder).sort()
}

/** Awaits a promise that must fail with an AppFailure; returns its error. */
export async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(AppFailure)
    return (err as AppFailure).error
  }
  throw new Error('expected the download to fail')
}

const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i

/** Asserts the rules a saved file name must meet on Windows, macOS and Linux. */
export function expectValidFileName(name: string): void {
  expect(name.length).toBeGreaterThan(0)
  expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(255)
  // eslint-disable-next-line no-control-regex -- control characters are what this rule removes
  expect(name).not.toMatch(/[<>:"/\\|?*\u0000-\u001f\u007f]/)
  expect(name).not.toMatch(/^[.\s]/)
  expect(name).not.toMatch(/[.\s]$/)
  expect(name === '.' || name === '..').toBe(false)
  expect(WINDOWS_DEVICE.test(name.split('.')[0].trimEnd())).toBe(false)
  expect(name.normalize('NFC')).toBe(name)
  // No lone surrogate: the name survives a UTF-8 round trip unchanged.
  expect(Buffer.from(name, 'utf8').toString('utf8')).toBe(name)
  expect(path.basename(name)).toBe(name)
}
