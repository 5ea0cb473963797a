// oidc-provider ships no types (and @types/oidc-provider is not installed): what test/support/oidc-op.ts uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type AdapterPayload = Record<string, unknown> & { uid?: string; userCode?: string; grantId?: string; consumed?: number };
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(code: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }
  export type ClientMetadata = Record<string, unknown> & { client_id: string; client_secret?: string; redirect_uris?: string[] };
  interface Interaction {
    uid: string;
    params: Record<string, unknown>;
  }
  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export interface Configuration {
    adapter?: new (model: string) => Adapter;
    jwks?: { keys: object[] };
    features?: Record<string, unknown>;
    interactions?: { url(ctx: unknown, interaction: Interaction): string };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    pkce?: { required(): boolean };
    findAccount?(ctx: unknown, sub: string): Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> } | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: new (init: { accountId: string; clientId: string }) => Grant;
  }
}
