// The demo service this build carries: the sandbox, bundled into main. Entry points (this file
// and scripts/browser-cli.ts) are the only main-process code that imports sandbox/; the core
// receives the starter as an option and never imports it.
import { demoServiceFactory } from '../core/demo/demo-service'
import { startSandbox } from '../../sandbox/server'

/** Starts the embedded sandbox on a free loopback port with the analyst's credentials. */
export const startDemoService = demoServiceFactory(startSandbox)
