import { AsnConvert } from "@peculiar/asn1-schema";
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  Certificate,
  Name,
  RelativeDistinguishedName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from "@peculiar/asn1-x509";

/**
 * Certificates made at test time for the SAML tests (unit, conformance, docs/sso.md): a
 * self-signed ECDSA P-256 certificate built with `@peculiar/asn1-x509` and signed with Web Crypto,
 * and the private key beside it, both in PEM. Not used by docsbase itself.
 */

const ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
const COMMON_NAME = "2.5.4.3";

export interface TestCertificate {
  /** The certificate, `-----BEGIN CERTIFICATE-----...`. */
  readonly certificate: string;
  /** Its private key, `-----BEGIN PRIVATE KEY-----...` (PKCS #8). */
  readonly privateKey: string;
}

/** A self-signed certificate for `commonName`, valid from `notBefore` to `notAfter`. */
export async function makeTestCertificate(options: {
  notBefore: Date;
  notAfter: Date;
  commonName?: string;
}): Promise<TestCertificate> {
  const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ]);
  const name = new Name([
    new RelativeDistinguishedName([
      new AttributeTypeAndValue({
        type: COMMON_NAME,
        value: new AttributeValue({ utf8String: options.commonName ?? "Test identity provider" }),
      }),
    ]),
  ]);
  const algorithm = new AlgorithmIdentifier({ algorithm: ECDSA_WITH_SHA256 });
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: crypto
      .getRandomValues(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0]))
      .map((byte, index) => (index === 0 ? (byte & 0x7f) | 0x01 : byte)).buffer,
    signature: algorithm,
    issuer: name,
    subject: name,
    validity: new Validity({ notBefore: options.notBefore, notAfter: options.notAfter }),
    subjectPublicKeyInfo: AsnConvert.parse(
      await crypto.subtle.exportKey("spki", keys.publicKey),
      SubjectPublicKeyInfo,
    ),
  });
  const raw = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, keys.privateKey, AsnConvert.serialize(tbs)),
  );
  const certificate = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: algorithm,
    signatureValue: derSignature(raw).buffer as ArrayBuffer,
  });
  return {
    certificate: pem("CERTIFICATE", new Uint8Array(AsnConvert.serialize(certificate))),
    privateKey: pem("PRIVATE KEY", new Uint8Array(await crypto.subtle.exportKey("pkcs8", keys.privateKey))),
  };
}

/** Text in PEM armour, 64 base64 characters a line. */
export function pem(label: string, bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const lines = btoa(binary).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** Web Crypto's `r || s` ECDSA signature as the DER `ECDSA-Sig-Value` X.509 carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.subarray(start);
    const body = trimmed[0]! & 0x80 ? Uint8Array.of(0, ...trimmed) : trimmed;
    return Uint8Array.of(0x02, body.length, ...body);
  };
  const half = raw.length / 2;
  const content = [...integer(raw.subarray(0, half)), ...integer(raw.subarray(half))];
  return Uint8Array.of(0x30, content.length, ...content);
}
