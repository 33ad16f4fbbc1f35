/**
 * Classification of IP addresses for the outbound-HTTP guard (docs/security.md).
 *
 * The rule is an allow-list in spirit: an address is `public` only when it is ordinary global
 * unicast. Every range of the IANA special-purpose registries that is not globally reachable is
 * refused, and for IPv6 everything outside 2000::/3 is refused except the forms that embed an IPv4
 * address (IPv4-mapped, NAT64, 6to4), which are judged by the address they embed.
 */

/** Why an address is refused, or `public` when it may be contacted. */
export type AddressKind =
  | "public"
  /** 0.0.0.0/8, `::` */
  | "unspecified"
  /** 127.0.0.0/8, `::1` */
  | "loopback"
  /** RFC 1918 (10/8, 172.16/12, 192.168/16), IPv6 unique local fc00::/7 and site-local fec0::/10 */
  | "private"
  /** 169.254.0.0/16 (cloud metadata endpoints live here), fe80::/10 */
  | "link-local"
  /** Carrier-grade NAT, 100.64.0.0/10 (RFC 6598): the provider's network, not the internet. */
  | "shared"
  /** 224.0.0.0/4, ff00::/8 */
  | "multicast"
  /** 255.255.255.255 */
  | "broadcast"
  /** Any other special-purpose range: documentation, benchmarking, 240.0.0.0/4, unassigned IPv6... */
  | "reserved";

type Range = readonly [base: string, prefix: number, kind: Exclude<AddressKind, "public">];

/** IANA IPv4 special-purpose registry, minus the few globally reachable entries. */
const IPV4_RANGES: readonly Range[] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "reserved"], // TEST-NET-1
  ["192.88.99.0", 24, "reserved"], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "reserved"], // TEST-NET-2
  ["203.0.113.0", 24, "reserved"], // TEST-NET-3
  ["224.0.0.0", 4, "multicast"],
  ["255.255.255.255", 32, "broadcast"], // before 240/4, which contains it
  ["240.0.0.0", 4, "reserved"],
];

const IPV4_TABLE = IPV4_RANGES.map(([base, prefix, kind]) => {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { network: (parseIPv4(base)! & mask) >>> 0, mask, kind };
});

/**
 * Parses dotted-decimal IPv4 (`192.0.2.1`) into an unsigned 32-bit number, or `undefined`.
 *
 * Only the canonical spelling is accepted: hosts reach the guard through the WHATWG URL parser,
 * which already rewrites every other IPv4 spelling of an http(s) URL (`127.1`, `2130706433`,
 * `0x7f000001`, `0177.0.0.1`) to dotted decimal, and resolvers answer in dotted decimal.
 */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** Parses an IPv6 address (no brackets, no zone) into its eight 16-bit groups, or `undefined`. */
export function parseIPv6(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const pieces = (half: string | undefined): number[] | undefined => {
    if (!half) return [];
    const groups: number[] = [];
    const items = half.split(":");
    for (const [index, item] of items.entries()) {
      if (index === items.length - 1 && item.includes(".")) {
        const v4 = parseIPv4(item);
        if (v4 === undefined) return undefined;
        groups.push(v4 >>> 16, v4 & 0xffff);
      } else if (/^[0-9a-f]{1,4}$/i.test(item)) {
        groups.push(parseInt(item, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  const head = pieces(halves[0]);
  const tail = pieces(halves[1]);
  if (!head || !tail) return undefined;
  // A dotted tail is only allowed at the very end: reject it at the end of the head before `::`.
  if (halves.length === 2 && halves[0]?.includes(".")) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function classifyIPv4(value: number): AddressKind {
  for (const { network, mask, kind } of IPV4_TABLE) {
    if ((value & mask) >>> 0 === network) return kind;
  }
  return "public";
}

function classifyIPv6(g: readonly number[]): AddressKind {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const zeroTo = (end: number) => g.slice(0, end).every((group) => group === 0);
  if (zeroTo(8)) return "unspecified";
  if (zeroTo(7) && g7 === 1) return "loopback";
  // ::ffff:a.b.c.d (IPv4-mapped) reaches the IPv4 address itself on dual-stack hosts.
  if (zeroTo(5) && g5 === 0xffff) return classifyIPv4(embedded);
  // ::a.b.c.d (deprecated IPv4-compatible) and ::ffff:0:a.b.c.d (SIIT) are not routed on the
  // internet; refuse them, naming the embedded address's range when that one is refused too.
  if (zeroTo(6) || (zeroTo(4) && g4 === 0xffff && g5 === 0)) {
    const kind = classifyIPv4(embedded);
    return kind === "public" ? "reserved" : kind;
  }
  // 64:ff9b::/96, the well-known NAT64 prefix: a translator forwards to the embedded address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return classifyIPv4(embedded);
  }
  // 2002::/16 (6to4): the embedded IPv4 address is the relay the packets go to.
  if (g0 === 0x2002) return classifyIPv4(((g1 << 16) | g2) >>> 0);
  if (g0 === 0x2001 && g1 < 0x200) return "reserved"; // IETF protocol assignments (Teredo, benchmarking...)
  if (g0 === 0x2001 && g1 === 0xdb8) return "reserved"; // documentation
  if (g0 === 0x3fff && g1 < 0x1000) return "reserved"; // documentation (RFC 9637)
  if ((g0 & 0xe000) === 0x2000) return "public"; // global unicast 2000::/3
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xffc0) === 0xfec0) return "private"; // deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return "reserved"; // 64:ff9b:1::/48 local NAT64, 100::/64 discard, unassigned space
}

/**
 * Classifies an IP address literal: dotted-decimal IPv4, or IPv6 with or without brackets and zone
 * (`fe80::1%eth0`). Returns `undefined` when the text is not an IP address (it is a host name).
 *
 * @example
 * ```ts
 * classifyAddress("10.0.0.1"); // "private"
 * classifyAddress("[::ffff:7f00:1]"); // "loopback"
 * classifyAddress("example.com"); // undefined
 * ```
 */
export function classifyAddress(text: string): AddressKind | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return classifyIPv4(v4);
  const bare = text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!bare.includes(":")) return undefined;
  const v6 = parseIPv6(bare);
  return v6 ? classifyIPv6(v6) : undefined;
}
