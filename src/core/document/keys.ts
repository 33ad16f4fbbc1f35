/**
 * Node keys of converted documents are paths: the top-level blocks are `0`, `1`..., the children
 * of `2` are `2.0`, `2.1`..., and the fragments of `2` are `2.f0`, `2.f1`... Converting the same
 * markdown twice gives the same keys, so a stored document and a document rebuilt from its
 * markdown agree on them, and they are unique within the document by construction.
 */

interface Keyed {
  key?: string;
  nodes?: readonly Keyed[];
  fragments?: readonly Keyed[];
}

/** Sets the key of every node and fragment below `document` (in place) and returns it. */
export function assignKeys<T extends { nodes: readonly Keyed[] }>(document: T): T {
  const visit = (children: readonly Keyed[] | undefined, prefix: string, marker: string) => {
    children?.forEach((child, index) => {
      const key = `${prefix}${marker}${index}`;
      child.key = key;
      visit(child.nodes, `${key}.`, "");
      visit(child.fragments, `${key}.`, "f");
    });
  };
  visit(document.nodes, "", "");
  return document;
}
