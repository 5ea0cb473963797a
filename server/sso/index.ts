/** What other domains may use of SSO (besides its pure schemas.ts). */
export { revokeBrokerGrantsOf } from "./broker/grants.ts";
export { createProvider, getProvider, presentProvider, refreshMetadata, updateProvider, type ProviderRow } from "./service.ts";
export { beginTestSignIn } from "./signin/begin.ts";
export { bindingCookie } from "./signin/binding.ts";
export { newBinding } from "./signin/pending.ts";
export { beginSsoStepUp, stepUpMethods } from "./signin/step-up.ts";
export { readTestResult } from "./signin/test-results.ts";
export { oidcSpDetails, samlSpDetails } from "./sp.ts";
