/**
 * Markdown of `blocks` random blocks, the same for the same seed (mulberry32): lists of every
 * marker, nested and loose, task items, quotes with lazy lines, headings, fenced code (closed or
 * not), tables, link and footnote definitions and references, HTML, rules and emphasis.
 */
export function randomMarkdown(seed: number, blocks: number): string {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const labels = ["a", "B", "foo bar", "x y", "Ünï", "n1", "n2"];
  const inline = () =>
    Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
      pick([
        "word",
        "*em*",
        "**strong**",
        "_under_",
        "~~gone~~",
        "`code`",
        "[link](https://x.y)",
        `[${pick(labels)}]`,
        `[text][${pick(labels)}]`,
        `[${pick(labels)}][]`,
        `[^${pick(["n1", "n2", "n3"])}]`,
        "<span>x</span>",
        "https://auto.link",
        "*open",
        "close*",
        "[unclosed",
        "\\*escaped",
        "{{ page.vars.a }}",
      ]),
    ).join(" ");
  const marker = () => pick(["-", "-", "*", "+", "1.", "2.", "1)"]);
  const line = (): string =>
    pick([
      () => inline(),
      () => `${marker()} ${inline()}`,
      () => `${marker()} ${pick(["[ ] ", "[x] ", ""])}${inline()}\n  ${marker()} ${inline()}`,
      () => `${marker()} ${inline()}\n\n  ${inline()}`,
      () => `${marker()}`,
      () => `  ${marker()} ${inline()}`,
      () => `> ${inline()}\n${inline()}`,
      () => `> ${marker()} ${inline()}\n> > ${inline()}`,
      () => `${"#".repeat(1 + Math.floor(random() * 6))} ${inline()}`,
      () => `${inline()}\n${pick(["===", "---"])}`,
      () => pick(["```js", "~~~", "````"]) + `\n${inline()}\n` + pick(["```", "~~~", "````", "", "``"]),
      () => `    indented code`,
      () => `| a | b |\n| --- | :-: |\n| ${inline()} | c |\n| d |`,
      () => `[${pick(labels)}]: https://def.example/${pick(labels).replace(/ /g, "-")} "title"`,
      () => `[^${pick(["n1", "n2", "n3"])}]: ${inline()}`,
      () => pick(["<div>", "<!-- comment", "-->", "</div>", "<pre>", "</pre>", "<details>"]),
      () => pick(["***", "- - -", "___", "* * *"]),
      () => "",
      () => "",
    ])();
  const parts: string[] = [];
  for (let index = 0; index < blocks; index++) parts.push(line(), pick(["\n", "\n", "\n\n", "\n\n\n"]));
  return parts.join("");
}
