import { AsnConvert } from "@peculiar/asn1-schema";
import { Certificate } from "@peculiar/asn1-x509";

/**
 * The identity provider's signing certificate of a SAML provider: one X.509 certificate in PEM
 * (`-----BEGIN CERTIFICATE-----`, base64 DER, `-----END CERTIFICATE-----`). The DER is parsed as
 * an RFC 5280 `Certificate` by `@peculiar/asn1-x509`, which runs on every runtime; no regular
 * expression decides what a certificate is. Its signature is not verified: a SAML identity
 * provider's certificate is usually self-signed, and what matters is that it is the one the
 * provider signs its assertions with.
 */

/** What a well-formed, current certificate reveals, for messages and tests. */
export interface CertificateInfo {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/** The outcome of {@link checkCertificate}: the certificate's validity, or why it was refused. */
export type CertificateCheck =
  { readonly ok: true; readonly info: CertificateInfo } | { readonly ok: false; readonly reason: string };

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Checks that `pem` holds exactly one X.509 certificate in PEM that is valid at `now`. The reason
 * of a refusal completes a sentence about the field ("body.certificate: " + reason).
 */
export function checkCertificate(pem: string, now: Date): CertificateCheck {
  const blocks = [...pem.matchAll(BLOCK)];
  if (blocks.length === 0) {
    return refuse(
      "is not a PEM certificate: expected the text between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE-----",
    );
  }
  const privateKey = blocks.find(([, label]) => /PRIVATE KEY/.test(label!));
  if (privateKey) {
    return refuse(
      `is a private key (PEM "${privateKey[1]}"), not a certificate: paste the identity provider's X.509 certificate and keep private keys secret`,
    );
  }
  if (blocks.length > 1) {
    return refuse(
      `holds ${blocks.length} PEM blocks: paste only the identity provider's signing certificate`,
    );
  }
  const [, label, body] = blocks[0]!;
  if (label !== "CERTIFICATE") return refuse(`is a PEM "${label}", not a CERTIFICATE`);
  const outside = pem.replace(BLOCK, "").trim();
  if (outside !== "") return refuse("has text outside its PEM block");
  const text = body!.replace(/\s+/g, "");
  if (text === "" || text.length % 4 !== 0 || !BASE64.test(text)) {
    return refuse("is not valid PEM: the content between the BEGIN and END lines is not base64");
  }
  let certificate: Certificate;
  try {
    certificate = AsnConvert.parse(decodeBase64(text), Certificate);
  } catch {
    return refuse("is not a valid X.509 certificate: its content does not parse as one");
  }
  const { validity } = certificate.tbsCertificate;
  const info = { notBefore: validity.notBefore.getTime(), notAfter: validity.notAfter.getTime() };
  if (Number.isNaN(info.notBefore.getTime()) || Number.isNaN(info.notAfter.getTime())) {
    return refuse("is not a valid X.509 certificate: its validity dates do not parse");
  }
  if (info.notAfter.getTime() < now.getTime()) {
    return refuse(`has expired: it was valid until ${info.notAfter.toISOString()}`);
  }
  if (info.notBefore.getTime() > now.getTime()) {
    return refuse(`is not valid yet: it is valid from ${info.notBefore.toISOString()}`);
  }
  return { ok: true, info };
}

const refuse = (reason: string): CertificateCheck => ({ ok: false, reason });

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
