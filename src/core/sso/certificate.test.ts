import { beforeAll, describe, expect, it } from "vitest";
import { checkCertificate } from "./certificate.js";
import { makeTestCertificate, pem, type TestCertificate } from "./test-certificates.js";

const NOW = new Date("2025-06-01T00:00:00.000Z");

describe("SAML certificate check", () => {
  let current: TestCertificate;
  let expired: TestCertificate;
  let future: TestCertificate;
  beforeAll(async () => {
    current = await makeTestCertificate({
      notBefore: new Date("2025-01-01T00:00:00Z"),
      notAfter: new Date("2026-01-01T00:00:00Z"),
    });
    expired = await makeTestCertificate({
      notBefore: new Date("2024-01-01T00:00:00Z"),
      notAfter: new Date("2025-05-31T23:59:59Z"),
    });
    future = await makeTestCertificate({
      notBefore: new Date("2025-06-02T00:00:00Z"),
      notAfter: new Date("2027-01-01T00:00:00Z"),
    });
  });

  const reasonOf = (text: string, now = NOW) => {
    const check = checkCertificate(text, now);
    return check.ok ? "ok" : check.reason;
  };

  it("accepts a current certificate and reports its validity", () => {
    expect(checkCertificate(current.certificate, NOW)).toEqual({
      ok: true,
      info: { notBefore: new Date("2025-01-01T00:00:00Z"), notAfter: new Date("2026-01-01T00:00:00Z") },
    });
    // Windows line endings and surrounding blank lines are still one PEM block.
    expect(reasonOf(`\n${current.certificate.replace(/\n/g, "\r\n")}\n`)).toBe("ok");
  });

  it("refuses an expired certificate, and one not valid yet, with the date", () => {
    expect(reasonOf(expired.certificate)).toBe("has expired: it was valid until 2025-05-31T23:59:59.000Z");
    expect(reasonOf(future.certificate)).toBe("is not valid yet: it is valid from 2025-06-02T00:00:00.000Z");
    // The boundaries: valid through notAfter itself.
    expect(reasonOf(expired.certificate, new Date("2025-05-31T23:59:59Z"))).toBe("ok");
  });

  it("refuses a private key pasted instead, naming it", () => {
    expect(reasonOf(current.privateKey)).toMatch(
      /^is a private key \(PEM "PRIVATE KEY"\), not a certificate/,
    );
    // Even beside the certificate.
    expect(reasonOf(`${current.certificate}${current.privateKey}`)).toMatch(/^is a private key/);
    const rsaStyle = current.privateKey.replace(/PRIVATE KEY/g, "RSA PRIVATE KEY");
    expect(reasonOf(rsaStyle)).toMatch(/^is a private key \(PEM "RSA PRIVATE KEY"\)/);
  });

  it("refuses garbage with a reason", () => {
    expect(reasonOf("not a certificate")).toMatch(/^is not a PEM certificate/);
    expect(reasonOf("MIIBNDCB3KADAgECAggHYJAcvVWPHTAKBggqhkjOPQQDAjAh")).toMatch(/^is not a PEM certificate/);
    const noise = new Uint8Array(300).map((_, index) => (index * 37 + 11) % 256);
    expect(reasonOf(pem("CERTIFICATE", noise))).toBe(
      "is not a valid X.509 certificate: its content does not parse as one",
    );
    expect(reasonOf("-----BEGIN CERTIFICATE-----\n%%%%\n-----END CERTIFICATE-----")).toBe(
      "is not valid PEM: the content between the BEGIN and END lines is not base64",
    );
    // A truncated certificate.
    const lines = current.certificate.trim().split("\n");
    const truncated = [...lines.slice(0, 3), lines.at(-1)].join("\n");
    expect(reasonOf(truncated)).toMatch(/^is not a valid X.509 certificate/);
    expect(reasonOf(current.certificate.replace(/CERTIFICATE/g, "PUBLIC KEY"))).toBe(
      'is a PEM "PUBLIC KEY", not a CERTIFICATE',
    );
    expect(reasonOf(`${current.certificate}${current.certificate}`)).toBe(
      "holds 2 PEM blocks: paste only the identity provider's signing certificate",
    );
    expect(reasonOf(`Subject: test\n${current.certificate}`)).toBe("has text outside its PEM block");
  });
});
