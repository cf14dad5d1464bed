// Host syntax shared by the renderer (per-line validation in the quick scan and the wizard, the
// wizard's exclusions), the catalog's targetAddress schema and the sandbox (host counting). Pure
// functions, no Node APIs.
//
// One entry is one of:
//   ipv4       192.0.2.10
//   cidr       192.0.2.0/24        (/16 or longer; /31 and /32 count every address, shorter
//                                   prefixes leave out the network and broadcast addresses)
//   range      192.0.2.1-192.0.2.10 or the short form 192.0.2.1-10 (at most 65,536 addresses)
//   hostname   www.example.com     (RFC 1123 labels; lower-cased, a trailing dot dropped)
//   ipv6       2001:db8::1
//   ipv6-cidr  2001:db8::/120      (/112 or longer: at most 65,536 addresses)
// docs/decisions.md ("Host syntax") explains the limits.
//
// common.ts holds the limits and types; ipv4.ts, ipv6.ts and hostname.ts each kind's rules;
// entry.ts one entry; intervals.ts the address arithmetic; list.ts whole lists.

export {
  MAX_HOST_LINES,
  MAX_RANGE_SIZE,
  MIN_IPV4_PREFIX,
  MIN_IPV6_PREFIX,
  type HostEntry,
  type HostEntryResult,
  type HostKind,
  type HostProblem,
} from './common'
export { expandHostEntry, parseHostEntry } from './entry'
export { cutIpv4Interval, type Ipv4Interval } from './intervals'
export { ipv4Interval, ipv4IntervalText, ipv4Text } from './ipv4'
export { ipv6Text } from './ipv6'
export { parseHostList, type HostLine, type HostListOptions, type HostListResult } from './list'
