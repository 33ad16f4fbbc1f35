/** Honest long pages, for the tests and the benchmark of issue 29. */

/** A changelog: 20,000 short items, about 600 KB. */
export function longList(items = 20_000): string {
  return Array.from({ length: items }, (_, index) => `- Fixed issue ${index} in the sync job\n`).join("");
}

/** A page of exactly `size` characters: sections of a heading, paragraphs, lists, code and a table. */
export function fullPage(size = 1_000_000): string {
  const section = (index: number) =>
    `## Section ${index}\n\nA paragraph with *emphasis*, **strong** words and a [link](https://example.com/${index}).\n\n` +
    `- first item\n- second item\n  - nested item\n\n1. one\n2. two\n\n` +
    "```js\nconst value = " +
    index +
    ";\n```\n\n| Name | Value |\n| ---- | ----- |\n| a    | 1     |\n\n";
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length + section(index).length + 2 < size; index++) {
    parts.push(section(index));
    length += section(index).length;
  }
  parts.push(`${"x".repeat(size - length - 1)}\n`);
  return parts.join("");
}
