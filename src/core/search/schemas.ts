import * as z from "zod";

/** The reference `SearchSectionResult`: a matching section of a page, with an excerpt of its text. */
export const sectionResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  path: z.string(),
  body: z.string(),
  urls: z.object({ app: z.string() }),
});

/** The reference `SearchPageResult`: a page with its matching sections, best first. */
export const pageResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  path: z.string(),
  sections: z.array(sectionResultSchema),
  ancestors: z.array(z.object({ title: z.string() })),
  urls: z.object({ app: z.string() }),
});
export type PageResult = z.infer<typeof pageResultSchema>;

/** The reference `SearchSpaceResult`: a space with its best pages. */
export const spaceResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  pages: z.array(pageResultSchema),
});
export type SpaceResult = z.infer<typeof spaceResultSchema>;
