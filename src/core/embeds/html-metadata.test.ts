import { describe, expect, it } from "vitest";
import { MAX_SCANNED_CHARACTERS, readPageMetadata } from "./html-metadata.js";

const URL = "https://docs.example.com/guide/start";

describe("readPageMetadata", () => {
  it("prefers OpenGraph's title and site name, and resolves the icon against the page", () => {
    const html = `<!doctype html><html><head>
      <title>Start | Example</title>
      <meta property="og:title" content="Getting started">
      <meta property='og:site_name' content='Example Docs'>
      <link rel="apple-touch-icon" href="/touch.png">
      <link rel="icon" type="image/png" href="../favicon.png">
    </head><body><title>Not this</title></body></html>`;
    expect(readPageMetadata(html, URL)).toEqual({
      title: "Getting started",
      site: "Example Docs",
      icon: "https://docs.example.com/favicon.png",
    });
  });

  it("falls back to twitter:title, then <title>, and to application-name for the site", () => {
    expect(
      readPageMetadata(`<meta name="twitter:title" content="From Twitter"><title>T</title>`, URL),
    ).toEqual({
      title: "From Twitter",
    });
    expect(
      readPageMetadata(
        `<TITLE lang=en>\n  Tom &amp; Jerry &#8212; &#x1F600; &bogus;\n</TITLE><meta name=application-name content=App>`,
        URL,
      ),
    ).toEqual({ title: "Tom & Jerry — 😀 &bogus;", site: "App" });
  });

  it("takes shortcut icon and apple-touch-icon when there is no icon, and refuses other schemes", () => {
    expect(readPageMetadata(`<link rel="Shortcut  Icon" href="/s.ico">`, URL).icon).toBe(
      "https://docs.example.com/s.ico",
    );
    expect(readPageMetadata(`<link rel="icon" href="javascript:alert(1)">`, URL)).toEqual({});
    expect(readPageMetadata(`<link rel="icon" href="data:image/png;base64,AAAA">`, URL)).toEqual({});
    expect(readPageMetadata(`<link rel="icon" href="//cdn.example.net/i.png?a=1&amp;b=2">`, URL).icon).toBe(
      "https://cdn.example.net/i.png?a=1&b=2",
    );
  });

  it("reads the head only, and within MAX_SCANNED_CHARACTERS", () => {
    expect(readPageMetadata(`<head></head><body><title>Body</title>`, URL)).toEqual({});
    expect(readPageMetadata(`<body><meta property="og:title" content="Late">`, URL)).toEqual({});
    const padded = `<!--${"x".repeat(MAX_SCANNED_CHARACTERS)}--><title>Too far</title>`;
    expect(readPageMetadata(padded, URL)).toEqual({});
  });

  it("keeps empty or blank values out, and cuts long ones", () => {
    expect(readPageMetadata(`<title>   </title><meta property="og:site_name" content="">`, URL)).toEqual({});
    const long = readPageMetadata(`<title>${"a".repeat(2000)}</title>`, URL).title!;
    expect(long).toHaveLength(512);
    expect(long.endsWith("…")).toBe(true);
  });

  it("reads a page of unclosed tags to its end without trouble", () => {
    // Each unclosed tag's attributes end at the next "<": the scan stays linear.
    const html = "<meta content=x ".repeat(MAX_SCANNED_CHARACTERS / 16);
    expect(readPageMetadata(html, URL)).toEqual({});
    expect(readPageMetadata(`<title>Open`, URL)).toEqual({ title: "Open" });
  });
});
