/**
 * Fixed values of the e2e environment, shared with e2e/serve.mjs (which reads constants.json).
 * Test-only secrets: they guard a throwaway database on localhost.
 */
import constants from "./constants.json" with { type: "json" };

export const PORT = Number(process.env.E2E_PORT ?? constants.port);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
export const OPERATOR_EMAIL = constants.operatorEmail;
export const OPERATOR_PASSWORD = constants.operatorPassword;
/** An operator API token (BOOTSTRAP_TOKEN), for arranging data through the REST API. */
export const OPERATOR_TOKEN = constants.bootstrapToken;
/** Where the e2e server sends mail: the journeys run a loopback SMTP server here (test/support/smtp.ts). */
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? constants.smtpPort);
