import { describe, expect, it } from 'vitest'
import { parseCli } from './cli'

describe('the sandbox command line', () => {
  it('maps flags onto sandbox options and faults', () => {
    const options = parseCli([
      '--port',
      '0',
      '--release',
      '5.3.0',
      '--seed',
      '9',
      '--api-key',
      'k1',
      '--test-mode',
      '--fixed-otp',
      '000000',
      '--latency',
      '20',
      '--error-rate',
      '0.25',
      '--rate-limit-every',
      '5',
      '--drop-mid-body',
      '--corrupt-downloads',
      '--unauthorized-after',
      '3',
      '--session-ttl',
      '60000',
      '--quiet',
    ])
    expect(options).toMatchObject({
      port: 0,
      release: '5.3.0',
      seed: 9,
      apiKey: 'k1',
      testMode: true,
      fixedOtp: '000000',
      sessionTtlMs: 60000,
      logRequests: false,
      faults: {
        latencyMs: 20,
        errorRate: 0.25,
        rateLimitEvery: 5,
        dropMidBody: true,
        corruptDownloads: true,
        unauthorizedAfter: 3,
      },
    })
  })

  it('takes the seed scale', () => {
    expect(parseCli(['--seed-scale', 'large'])).toMatchObject({ seedScale: 'large' })
    expect(parseCli(['--seed-scale', 'default'])).toMatchObject({ seedScale: 'default' })
    expect(parseCli([]).valueOf()).toMatchObject({ seedScale: undefined })
  })

  it('takes the scan duration and the time verify and sync take', () => {
    expect(parseCli(['--scan-duration', '5000', '--action-delay', '0'])).toMatchObject({
      scanDurationMs: 5000,
      actionDelayMs: 0,
    })
    expect(parseCli([])).toMatchObject({ scanDurationMs: undefined, actionDelayMs: undefined })
    expect(() => parseCli(['--scan-duration', '10'])).toThrow(
      '--scan-duration must be an integer from 1000 to 86400000, got "10"',
    )
    expect(() => parseCli(['--action-delay', '-5'])).toThrow(/--action-delay/)
  })

  it('defaults to port 4010 with request logging and no faults', () => {
    expect(parseCli([])).toMatchObject({
      port: 4010,
      testMode: false,
      logRequests: true,
      faults: {},
    })
  })

  it('explains bad flags', () => {
    expect(() => parseCli(['--port', 'abc'])).toThrow('--port must be an integer from 0 to 65535')
    expect(() => parseCli(['--release', '6.0'])).toThrow(/--release must be one of latest/)
    expect(() => parseCli(['--error-rate', '1.5'])).toThrow(
      /--error-rate must be a number from 0 to 1/,
    )
    expect(() => parseCli(['--latency', '-1'])).toThrow(/--latency/)
    expect(() => parseCli(['--nope'])).toThrow(/nope/)
    expect(() => parseCli(['--api-key', ' '])).toThrow(/--api-key/)
    expect(() => parseCli(['--seed-scale', 'huge'])).toThrow(
      '--seed-scale must be default or large, got "huge"',
    )
  })
})
