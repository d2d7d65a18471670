// IP addresses written as Go's net/netip writes them, for the addresses the node reports
// (info.getNodeIP, the process context file's stakingAddress): AvalancheGo holds these as
// netip.AddrPort, whose text is `1.2.3.4:9651` or `[::1]:9651`.
import { isIP } from 'node:net';

/**
 * The 8 groups of an IPv6 address Node's isIP accepted (`::`, an IPv4 tail such as
 * `::ffff:1.2.3.4`), and its zone if any.
 */
function ipv6Groups(text: string): { groups: number[]; zone: string } {
  const pct = text.indexOf('%');
  const zone = pct >= 0 ? text.slice(pct + 1) : '';
  let s = pct >= 0 ? text.slice(0, pct) : text;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    s = s.slice(0, v4.index) + ((a << 8) | b).toString(16) + ':' + ((c << 8) | d).toString(16);
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const gap = s.indexOf('::');
  if (gap < 0) return { groups: parse(s), zone };
  const head = parse(s.slice(0, gap));
  const tail = parse(s.slice(gap + 2));
  return { groups: [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail], zone };
}

/** netip.Addr.String for IPv6: RFC 5952, the first longest run of 2+ zero groups as `::`; ::ffff:a.b.c.d kept dotted. */
function ipv6String(groups: number[], zone: string): string {
  const z = zone === '' ? '' : '%' + zone;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}${z}`;
  }
  let zeroStart = -1;
  let zeroEnd = -1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > zeroEnd - zeroStart) [zeroStart, zeroEnd] = [i, j];
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::';
      i = zeroEnd - 1;
      continue;
    }
    if (i > 0 && i !== zeroEnd) out += ':';
    out += groups[i].toString(16);
  }
  return out + z;
}

/**
 * An IP as AvalancheGo keeps it (utils/ips.ParseAddr: netip.ParseAddr, then an IPv4-mapped IPv6
 * address unmapped to its IPv4 form), written as netip.Addr.String. Not an IP: returned as given.
 */
export function canonicalIP(ip: string): string {
  const kind = isIP(ip);
  if (kind === 4) return ip;
  if (kind !== 6) return ip;
  const { groups, zone } = ipv6Groups(ip);
  if (zone === '' && groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  }
  return ipv6String(groups, zone);
}

/** netip.AddrPort.String: `host:port`, an IPv6 host in brackets. */
export function addrPort(host: string, port: number): string {
  const h = canonicalIP(host);
  return h.includes(':') ? `[${h}]:${port}` : `${h}:${port}`;
}
