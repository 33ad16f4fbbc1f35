import { z } from "zod";
import type { UserRecord } from "./tables.js";
import type { World } from "../shared/world.js";

export const userSchema = z.object({
  object: z.literal("user"),
  id: z.string(),
  displayName: z.string(),
  email: z.string().optional(),
  photoURL: z.string().optional(),
  urls: z.object({ location: z.string() }),
});
export type User = z.infer<typeof userSchema>;

export function toUser(world: World, record: UserRecord): User {
  return {
    object: "user",
    id: record.id,
    displayName: record.displayName,
    email: record.email,
    ...(record.photoURL ? { photoURL: record.photoURL } : {}),
    urls: { location: `${world.baseUrl}/v1/users/${record.id}` },
  };
}
