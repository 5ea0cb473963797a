/**
 * Field schemas for JSON bodies that trpc-to-openapi cannot loosen. Its REST handler switches on
 * zod coercion for every number/boolean in an input (query and body alike), so a body's
 * `"enabled": "false"` would pass z.boolean() as true. Literal unions are not coerced.
 */
import { z } from "zod";

export const JsonBoolean = z.literal([true, false], { error: "must be true or false" });
