import { describe, expect, it } from "vitest";
import { classifyAddress, parseIPv4, parseIPv6 } from "./ip.js";

describe("parseIPv4", () => {
  it("reads dotted decimal only", () => {
    expect(parseIPv4("192.0.2.1")).toBe(0xc0000201);
    expect(parseIPv4("255.255.255.255")).toBe(0xffffffff);
    for (const text of [
      "127.1",
      "2130706433",
      "0x7f.0.0.1",
      "0177.0.0.1",
      "1.2.3.256",
      "1.2.3.4.5",
      "",
      "a.b.c.d",
    ]) {
      expect(parseIPv4(text), text).toBeUndefined();
    }
  });
});

describe("parseIPv6", () => {
  it("expands compressed forms and a dotted tail", () => {
    expect(parseIPv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("fe80::1:2")).toEqual([0xfe80, 0, 0, 0, 0, 0, 1, 2]);
    expect(parseIPv6("1:2:3:4:5:6:7::")).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
    expect(parseIPv6("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("rejects what is not an address", () => {
    for (const text of [
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3",
      ":1::",
      "1::2:",
      "12345::",
      "1.2.3.4::",
      "::1.2.3",
      "g::1",
    ]) {
      expect(parseIPv6(text), text).toBeUndefined();
    }
  });
});

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["93.184.215.14", "public"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.255.0.1", "private"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["100.128.0.1", "public"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "link-local"],
    ["172.15.255.255", "public"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "reserved"],
    ["192.168.1.1", "private"],
    ["198.18.0.1", "reserved"],
    ["203.0.113.9", "reserved"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["2606:4700:4700::1111", "public"],
    ["[2001:4860:4860::8888]", "public"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["::ffff:8.8.8.8", "public"],
    ["::7f00:1", "loopback"],
    ["::8.8.8.8", "reserved"],
    ["::ffff:0:7f00:1", "loopback"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::808:808", "public"],
    ["64:ff9b:1::1", "reserved"],
    ["2002:a00:1::1", "private"],
    ["2002:808:808::1", "public"],
    ["2001:db8::1", "reserved"],
    ["2001::1", "reserved"],
    ["3fff::1", "reserved"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["100::1", "reserved"],
    ["4000::1", "reserved"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("answers undefined for host names", () => {
    expect(classifyAddress("example.com")).toBeUndefined();
    expect(classifyAddress("127.0.0.1.nip.io")).toBeUndefined();
    expect(classifyAddress("[not:an:address]")).toBeUndefined();
  });
});
