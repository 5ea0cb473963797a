import { describe, expect, test } from "vitest";
import { MAX_SHOWN, showToast, type Toast } from "../../components/ui/toast-list";

const toast = (key: string, id: number, message = key): Toast => ({ key, id, tone: "info", message });

describe("the notices shown at once", () => {
  test("a notice named like one on screen replaces it in place, instead of stacking under it (Send test event on a phone)", () => {
    const shown = showToast([toast("other", 1), toast("webhook-test-d1", 2, "on its way")], toast("webhook-test-d1", 3, "Delivered"));
    expect(shown.map((t) => [t.key, t.id, t.message])).toEqual([
      ["other", 1, "other"],
      ["webhook-test-d1", 3, "Delivered"],
    ]);
  });

  test("notices with other names stack, the oldest going past the limit", () => {
    let shown: Toast[] = [];
    for (let i = 1; i <= MAX_SHOWN + 1; i++) shown = showToast(shown, toast(`toast-${i}`, i));
    expect(shown.map((t) => t.id)).toEqual([2, 3, 4]);
  });
});
