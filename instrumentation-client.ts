// Runs in the browser before the app hydrates. Zod compiles object parsers with `Function` unless
// told not to, and probes for it once; under the console's CSP (no 'unsafe-eval', proxy.ts) that
// probe is a policy violation. The interpreted parsers are fast enough for forms.
import { z } from "zod";

z.config({ jitless: true });
