/**
 * A stream's config at rest: the public part as jsonb, the secret fields encrypted together as
 * one JSON value. Checked against its type's schema (400s name `config.<field>`), outbound
 * targets against the URL policy, and shown with `<field>_set` in place of each secret.
 */
import { fieldErrorsOf, InvalidField, InvalidRequest, type FieldError } from "../errors.ts";
import { decryptSecret, encryptSecret } from "../secrets/encryption.ts";
import { outboundHostProblems, outboundUrlProblems } from "../outbound/url-policy.ts";
import { CONFIG_SCHEMAS, DESTINATION_FIELDS, SECRET_FIELDS, type LogStreamConfigs, type LogStreamType } from "./schemas.ts";

export type AnyConfig = Record<string, unknown>;

/** The fields of a config that are outbound URLs (checked against the URL policy). */
const URL_FIELDS: Record<LogStreamType, string[]> = {
  s3: ["endpoint"],
  datadog: ["endpoint"],
  splunk_hec: ["url"],
  https: ["url"],
  syslog: [],
};

/** Validates a whole config of `type`: the parsed value, or a 400 naming each `config.<field>`. */
export function checkConfig<T extends LogStreamType>(type: T, raw: AnyConfig): LogStreamConfigs[T] {
  const parsed = CONFIG_SCHEMAS[type].safeParse(raw);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error, raw).map((e) => ({ ...e, path: e.path === "body" ? "config" : `config.${e.path}` }));
    throw InvalidRequest(errors.map((e) => `${e.path}: ${e.message}`).join("; "), errors);
  }
  const config = parsed.data as AnyConfig;
  const errors: FieldError[] = [];
  for (const field of URL_FIELDS[type]) {
    const value = config[field];
    if (typeof value === "string") for (const message of outboundUrlProblems(value)) errors.push({ path: `config.${field}`, message });
  }
  if (type === "syslog") for (const message of outboundHostProblems(String(config.host))) errors.push({ path: "config.host", message });
  if (errors.length) throw InvalidRequest(errors.map((e) => `${e.path}: ${e.message}`).join("; "), errors);
  return parsed.data as LogStreamConfigs[T];
}

/** Splits a checked config into what is stored in the clear and the encrypted secrets (null: none). */
export function sealConfig(type: LogStreamType, config: AnyConfig): { config: AnyConfig; secretsCiphertext: string | null } {
  const open: AnyConfig = { ...config };
  const secret: AnyConfig = {};
  for (const field of SECRET_FIELDS[type] as readonly string[]) {
    if (open[field] !== undefined) secret[field] = open[field];
    delete open[field];
  }
  return { config: open, secretsCiphertext: Object.keys(secret).length ? encryptSecret(JSON.stringify(secret)) : null };
}

/** The whole config, secrets decrypted: for the sink, and as the base a PATCH merges over. */
export function openConfig(stored: { config: unknown; secretsCiphertext: string | null }): AnyConfig {
  const secrets = stored.secretsCiphertext ? (JSON.parse(decryptSecret(stored.secretsCiphertext)) as AnyConfig) : {};
  return { ...(stored.config as AnyConfig), ...secrets };
}

/** The config as the API shows it: each secret field replaced by `<field>_set: true` when stored. */
export function publicConfig(type: LogStreamType, stored: { config: unknown; secretsCiphertext: string | null }): AnyConfig {
  const shown: AnyConfig = { ...(stored.config as AnyConfig) };
  // Each type has at most one secret field, so a ciphertext means it is set (no decryption to list).
  for (const field of SECRET_FIELDS[type] as readonly string[]) shown[`${field}_set`] = stored.secretsCiphertext !== null;
  return shown;
}

/**
 * A stored secret never follows a stream to a new destination (DESTINATION_FIELDS changed from
 * `before` to `after`): a secret the PATCH does not send again is a 400 naming it when the type
 * requires it, else dropped from `after`. The secrets dropped.
 */
export function dropMovedSecrets(type: LogStreamType, before: AnyConfig, patch: AnyConfig, after: AnyConfig): string[] {
  const moved = (DESTINATION_FIELDS[type] as readonly string[]).filter((f) => JSON.stringify(after[f]) !== JSON.stringify(before[f]));
  if (moved.length === 0) return [];
  const dropped: string[] = [];
  for (const field of SECRET_FIELDS[type] as readonly string[]) {
    if (field in patch || before[field] === undefined) continue;
    const shape = CONFIG_SCHEMAS[type].shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;
    if (!shape[field]!.safeParse(undefined).success) {
      const changes = `${moved.join(" and ")} ${moved.length > 1 ? "change" : "changes"}`;
      throw InvalidField(
        `config.${field}`,
        `must be sent again when ${changes}: a stored secret never follows a stream to a new destination`,
      );
    }
    delete after[field];
    dropped.push(field);
  }
  return dropped;
}

/** A PATCH's config merged over the stored one: a field sent as null is removed, one left out is kept. */
export function mergeConfig(current: AnyConfig, patch: AnyConfig): AnyConfig {
  const merged: AnyConfig = { ...current, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === null) delete merged[key];
  return merged;
}
