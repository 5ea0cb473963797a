import { describe, expect, test } from "vitest";
import { focusDomain, recordStepState, verifiedNote } from "../../components/setup/domain-steps";

type Method = "dns" | "override" | null;
const domain = (
  id: string,
  state: "pending" | "verified" | "failed",
  created: string,
  method: Method = state === "verified" ? "dns" : null,
) => ({
  id,
  state,
  created_at: `2026-12-0${created}T00:00:00.000Z`,
  verification_method: method,
});

describe("the guided domain verification", () => {
  const operatorVerified = domain("old", "verified", "1", "override");
  const justAdded = domain("new", "pending", "2");

  test("step 2 follows the domain just added: another verified domain of the tenant does not tick it", () => {
    expect(recordStepState([operatorVerified, justAdded], "new")).toBe("current");
    expect(recordStepState([operatorVerified, { ...justAdded, state: "verified" as const, verification_method: "dns" }], "new")).toBe(
      "done",
    );
  });

  test("with none added on the page (a reload), the steps follow the newest domain", () => {
    expect(focusDomain([justAdded, operatorVerified], null)?.id).toBe("new");
    expect(recordStepState([operatorVerified, justAdded], null)).toBe("current");
    expect(recordStepState([], null)).toBe("ahead");
  });

  test('a DNS-verified domain\'s record "must stay"; an overridden one was "verified by the platform operator"', () => {
    expect(verifiedNote({ verification_method: "dns" })).toContain("must stay");
    expect(verifiedNote({ verification_method: "override" })).toContain("Verified by the platform operator");
    expect(verifiedNote({ verification_method: "override" })).not.toContain("must stay");
  });
});
