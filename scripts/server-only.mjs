/**
 * `node --import ./scripts/server-only.mjs`: lets plain Node (the CLI, start-up, benchmarks, test
 * workers) load the server modules. They `import "server-only"`, whose default export throws
 * outside Next's react-server condition by design; here that one package resolves under the
 * react-server condition (its empty module). Nothing else changes resolution.
 */
import { register } from "node:module";

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier !== "server-only") return next(specifier, context);
  return next(specifier, { ...context, conditions: [...context.conditions, "react-server"] });
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
