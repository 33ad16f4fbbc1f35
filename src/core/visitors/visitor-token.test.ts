import { base64url, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  newPublishingKey,
  signVisitorToken,
  verifyVisitorToken,
  VISITOR_TOKEN_CLOCK_TOLERANCE_SECONDS,
} from "./visitor-token.js";

const NOW = new Date("2025-06-01T12:00:00Z");
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const KEY = "publishing-key-of-the-site-0123456789abcdef";

const encodeJson = (value: unknown) => base64url.encode(JSON.stringify(value));
const parts = (token: string) => token.split(".") as [string, string, string];

describe("verifyVisitorToken", () => {
  it("accepts a token signed HS256 with the key, returning the custom claims only", async () => {
    const token = await signVisitorToken(
      { plan: "pro", beta: true, sub: "u1", iss: "app", aud: "docs", jti: "1" },
      KEY,
      {
        issuedAt: at(-60),
        notBefore: at(-60),
        expiresAt: at(3600),
      },
    );
    expect(await verifyVisitorToken(token, KEY, NOW)).toEqual({
      ok: true,
      claims: { plan: "pro", beta: true },
    });
  });

  it("accepts a token without exp or nbf", async () => {
    const token = await signVisitorToken({ role: "admin" }, KEY);
    expect(await verifyVisitorToken(token, KEY, NOW)).toEqual({ ok: true, claims: { role: "admin" } });
  });

  it("passes nested claims through unchanged", async () => {
    const claims = { company: { tier: "gold", seats: 12 }, groups: ["a", "b"] };
    const token = await signVisitorToken(claims, KEY, { expiresAt: at(60) });
    expect(await verifyVisitorToken(token, KEY, NOW)).toEqual({ ok: true, claims });
  });

  it("keeps a __proto__ claim as a plain property", async () => {
    const payload = `{"__proto__":{"polluted":true},"plan":"pro"}`;
    const token = await new SignJWT(JSON.parse(payload) as Record<string, unknown>)
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(KEY));
    const result = await verifyVisitorToken(token, KEY, NOW);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.getPrototypeOf(result.claims)).toBe(Object.prototype);
    expect((result.claims as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("refuses an expired token, within the documented tolerance only", async () => {
    const tolerance = VISITOR_TOKEN_CLOCK_TOLERANCE_SECONDS;
    const long = await signVisitorToken({ plan: "pro" }, KEY, { expiresAt: at(-3600) });
    expect(await verifyVisitorToken(long, KEY, NOW)).toEqual({ ok: false, reason: "expired" });
    const past = await signVisitorToken({ plan: "pro" }, KEY, { expiresAt: at(-tolerance - 1) });
    expect(await verifyVisitorToken(past, KEY, NOW)).toEqual({ ok: false, reason: "expired" });
    const within = await signVisitorToken({ plan: "pro" }, KEY, { expiresAt: at(-tolerance + 1) });
    expect((await verifyVisitorToken(within, KEY, NOW)).ok).toBe(true);
  });

  it("refuses a token whose nbf is in the future", async () => {
    const tolerance = VISITOR_TOKEN_CLOCK_TOLERANCE_SECONDS;
    const later = await signVisitorToken({ plan: "pro" }, KEY, {
      notBefore: at(tolerance + 1),
      expiresAt: at(3600),
    });
    expect(await verifyVisitorToken(later, KEY, NOW)).toEqual({ ok: false, reason: "not-yet-valid" });
    const soon = await signVisitorToken({ plan: "pro" }, KEY, {
      notBefore: at(tolerance - 1),
      expiresAt: at(3600),
    });
    expect((await verifyVisitorToken(soon, KEY, NOW)).ok).toBe(true);
    // The same token becomes valid once `now` passes its nbf.
    expect((await verifyVisitorToken(later, KEY, at(tolerance + 1))).ok).toBe(true);
  });

  it("refuses a token signed with another key, whatever its times", async () => {
    const token = await signVisitorToken({ plan: "pro" }, "another-key", { expiresAt: at(3600) });
    expect(await verifyVisitorToken(token, KEY, NOW)).toEqual({ ok: false, reason: "signature" });
    const expired = await signVisitorToken({ plan: "pro" }, "another-key", { expiresAt: at(-3600) });
    expect(await verifyVisitorToken(expired, KEY, NOW)).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses every token when the key is empty", async () => {
    const token = await signVisitorToken({ plan: "pro" }, KEY);
    expect(await verifyVisitorToken(token, "", NOW)).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses alg none, with or without a signature", async () => {
    const payload = encodeJson({ plan: "pro", exp: Math.floor(at(3600).getTime() / 1000) });
    for (const header of [{ alg: "none" }, { alg: "none", typ: "JWT" }, { alg: "None" }, { alg: "NONE" }]) {
      const unsigned = `${encodeJson(header)}.${payload}.`;
      expect(await verifyVisitorToken(unsigned, KEY, NOW)).toEqual({ ok: false, reason: "algorithm" });
    }
    // An alg-none header in front of a real HS256 signature is still refused.
    const signature = parts(await signVisitorToken({ plan: "pro" }, KEY))[2];
    const relabelled = `${encodeJson({ alg: "none" })}.${payload}.${signature}`;
    expect(await verifyVisitorToken(relabelled, KEY, NOW)).toEqual({ ok: false, reason: "algorithm" });
  });

  it("refuses HS384 and HS512 tokens signed with the right key", async () => {
    for (const alg of ["HS384", "HS512"]) {
      const token = await new SignJWT({ plan: "pro" })
        .setProtectedHeader({ alg })
        .setExpirationTime(at(3600))
        .sign(new TextEncoder().encode(KEY));
      expect(await verifyVisitorToken(token, KEY, NOW)).toEqual({ ok: false, reason: "algorithm" });
    }
  });

  it("refuses a header without alg, or with a critical extension it does not know", async () => {
    const [, payload, signature] = parts(await signVisitorToken({ plan: "pro" }, KEY));
    for (const header of [{ typ: "JWT" }, { alg: "HS256", crit: ["exp2"], exp2: 1 }]) {
      const token = `${encodeJson(header)}.${payload}.${signature}`;
      expect(await verifyVisitorToken(token, KEY, NOW)).toEqual({ ok: false, reason: "malformed" });
    }
  });

  it("refuses a tampered payload that keeps the original signature", async () => {
    const token = await signVisitorToken({ plan: "free" }, KEY, { expiresAt: at(3600) });
    const [header, , signature] = parts(token);
    const forged = encodeJson({ plan: "pro", exp: Math.floor(at(3600).getTime() / 1000) });
    expect(await verifyVisitorToken(`${header}.${forged}.${signature}`, KEY, NOW)).toEqual({
      ok: false,
      reason: "signature",
    });
    // Extending the expiry of an expired token breaks its signature as well.
    const expired = await signVisitorToken({ plan: "pro" }, KEY, { expiresAt: at(-3600) });
    const [expiredHeader, , expiredSignature] = parts(expired);
    const extended = encodeJson({ plan: "pro", exp: Math.floor(at(3600).getTime() / 1000) });
    expect(await verifyVisitorToken(`${expiredHeader}.${extended}.${expiredSignature}`, KEY, NOW)).toEqual({
      ok: false,
      reason: "signature",
    });
  });

  it("refuses a tampered signature", async () => {
    const [header, payload, signature] = parts(await signVisitorToken({ plan: "pro" }, KEY));
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    expect(await verifyVisitorToken(`${header}.${payload}.${flipped}`, KEY, NOW)).toEqual({
      ok: false,
      reason: "signature",
    });
  });

  it("answers malformed for strings that are not a JWS", async () => {
    const [header, payload, signature] = parts(await signVisitorToken({ plan: "pro" }, KEY));
    const malformed = [
      "",
      "not-a-token",
      "a.b",
      "a.b.c.d",
      "a.b.c.d.e",
      "...",
      `${header}.${payload}`,
      `${header}.${payload}.${signature}.`,
      `!!!.${payload}.${signature}`,
      `${encodeJson("HS256")}.${payload}.${signature}`,
      `${base64url.encode("{not json")}.${payload}.${signature}`,
      `${header}.${payload}.${signature} `,
      ` ${header}.${payload}.${signature}`,
    ];
    for (const token of malformed) {
      expect(await verifyVisitorToken(token, KEY, NOW), JSON.stringify(token)).toEqual({
        ok: false,
        reason: "malformed",
      });
    }
    // A properly signed payload that is not a JSON object, or has a non-numeric exp.
    const key = new TextEncoder().encode(KEY);
    const hmac = async (input: string) => {
      const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
        "sign",
      ]);
      const mac = await crypto.subtle.sign("HMAC", cryptoKey, new TextEncoder().encode(input));
      return base64url.encode(new Uint8Array(mac));
    };
    const signed = async (body: string) => {
      const input = `${encodeJson({ alg: "HS256" })}.${base64url.encode(body)}`;
      return `${input}.${await hmac(input)}`;
    };
    for (const body of ["[1,2]", '"text"', "42", "{not json", '{"exp":"tomorrow"}', '{"nbf":"later"}']) {
      expect(await verifyVisitorToken(await signed(body), KEY, NOW), body).toEqual({
        ok: false,
        reason: "malformed",
      });
    }
    // The hand-made signer is right: a good body passes.
    expect(await verifyVisitorToken(await signed('{"plan":"pro"}'), KEY, NOW)).toEqual({
      ok: true,
      claims: { plan: "pro" },
    });
  });
});

describe("newPublishingKey", () => {
  it("is 32 random bytes in base64url", () => {
    const keys = new Set(Array.from({ length: 20 }, () => newPublishingKey()));
    expect(keys.size).toBe(20);
    for (const key of keys) {
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(base64url.decode(key)).toHaveLength(32);
    }
  });

  it("signs and verifies a token", async () => {
    const key = newPublishingKey();
    const token = await signVisitorToken({ plan: "pro" }, key, { expiresAt: at(60) });
    expect(await verifyVisitorToken(token, key, NOW)).toEqual({ ok: true, claims: { plan: "pro" } });
    expect(await verifyVisitorToken(token, newPublishingKey(), NOW)).toEqual({
      ok: false,
      reason: "signature",
    });
  });
});

describe("signVisitorToken", () => {
  it("writes an HS256 JWT header and the given times in seconds", async () => {
    const token = await signVisitorToken({ plan: "pro" }, KEY, {
      issuedAt: NOW,
      notBefore: at(-5),
      expiresAt: at(60),
    });
    const [header, payload] = parts(token);
    const decode = (part: string) => JSON.parse(new TextDecoder().decode(base64url.decode(part)));
    expect(decode(header)).toEqual({ alg: "HS256", typ: "JWT" });
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
    expect(decode(payload)).toEqual({
      plan: "pro",
      iat: seconds(NOW),
      nbf: seconds(at(-5)),
      exp: seconds(at(60)),
    });
  });
});
