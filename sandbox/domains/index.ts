import type { SandboxDomain } from '../types'
import { commerceDomain } from './commerce/index'
import { identityDomain } from './identity/index'
import { reportingDomain } from './reporting/index'
import { scanningDomain } from './scanning/index'

/**
 * Every domain, in seed order: identity (organizations, users, sessions) first, then commerce
 * (products, plans, subscriptions), scanning (targets, scans, hosts, vulnerabilities…) and
 * reporting (reports, SAQ, webhooks, audit, notifications…).
 */
export const domains: readonly SandboxDomain[] = [
  identityDomain,
  commerceDomain,
  scanningDomain,
  reportingDomain,
]
