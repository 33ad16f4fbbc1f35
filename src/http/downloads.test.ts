import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentDisposition, downloadHeaders } from "./downloads.js";

describe("downloadHeaders", () => {
  it("keeps only raster images inline, and PDFs when opted in", () => {
    const disposition = (type: string, inlinePdf = false) =>
      downloadHeaders("f", type, { inlinePdf })["content-disposition"]!.split(";")[0];
    for (const type of [
      "image/png",
      "IMAGE/JPEG",
      "image/gif; x=y",
      "image/webp",
      "image/avif",
      "image/bmp",
    ]) {
      expect(disposition(type), type).toBe("inline");
    }
    for (const type of [
      "image/svg+xml",
      "text/html",
      "text/plain",
      "application/pdf",
      "text/xml",
      "",
      "nonsense",
    ]) {
      expect(disposition(type), type).toBe("attachment");
    }
    expect(disposition("application/pdf", true)).toBe("inline");
  });

  it("sends script and style types, and malformed ones, as application/octet-stream", () => {
    const type = (declared: string) => downloadHeaders("f", declared, { inlinePdf: false })["content-type"];
    expect(type("text/javascript")).toBe("application/octet-stream");
    expect(type("Application/JavaScript; charset=utf-8")).toBe("application/octet-stream");
    expect(type("text/css")).toBe("application/octet-stream");
    expect(type("text/html\r\nx: y")).toBe("application/octet-stream");
    expect(type("text/plain; charset=utf-8")).toBe("text/plain");
  });
});

describe("contentDisposition", () => {
  it("is a valid header for any name, whose filename* decodes back to the name (seeded)", () => {
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    const names = fc.oneof(
      fc.string({ unit: codeUnit, minLength: 1 }),
      fc.string({ unit: "binary", minLength: 1 }),
    );
    fc.assert(
      fc.property(names, (name) => {
        const value = contentDisposition("attachment", name);
        expect(() => new Headers({ "content-disposition": value })).not.toThrow();
        expect(value).toMatch(
          /^attachment; filename="[\x20-\x7e]*"(; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]+)?$/,
        );
        const extended = /filename\*=UTF-8''(.*)$/.exec(value)?.[1];
        const wellFormed = name.replace(/\p{Cs}/gu, "\ufffd");
        if (extended) expect(decodeURIComponent(extended)).toBe(wellFormed);
        else expect(value).toBe(`attachment; filename="${name}"`);
      }),
      { seed: 9, numRuns: 200 },
    );
  });
});
