import type { SandboxDomain } from '../types'
import { identityDomain } from './identity/index'
import { reportingDomain } from './reporting/index'
import { scanningDomain } from './scanning/index'

/**
 * Every domain, in seed order: identity (organizations, users, plans) first, then scanning
 * (targets, scans, hosts, vulnerabilities…), then reporting (reports, SAQ, webhooks…).
 */
export const domains: readonly SandboxDomain[] = [identityDomain, scanningDomain, reportingDomain]
