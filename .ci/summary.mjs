// Prints the closing line 'N passed, N failed[, N skipped]' from vitest's JSON report, counting
// each failed CI step (lint, typecheck, docs) as a failure too; exits non-zero on any failure.
import { existsSync, readFileSync } from 'node:fs'

const [file, stepsFailedArg] = process.argv.slice(2)
const stepsFailed = Number(stepsFailedArg ?? 0)
let passed = 0
let failed = 0
let skipped = 0
if (file && existsSync(file)) {
  const report = JSON.parse(readFileSync(file, 'utf8'))
  passed = report.numPassedTests ?? 0
  failed = report.numFailedTests ?? 0
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  if (report.numTotalTests === 0) failed += 1
  if (report.success === false && failed === 0) failed += 1
} else {
  failed += 1
}
// A failing step counts once, even when every test passed.
const testsFailedStep = failed > 0 ? 1 : 0
const extra = Math.max(0, stepsFailed - testsFailedStep)
failed += extra
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 ? 1 : 0)
