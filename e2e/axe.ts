import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Fails on any WCAG 2 A/AA violation axe rates serious or critical, naming rule and elements. */
export async function expectNoSeriousA11yViolations(page: Page) {
  // Colours caught mid-transition (a button enabled at hydration fades in with transition-colors)
  // fail the contrast check by chance: wait for running CSS transitions to end (not animations,
  // which a spinner runs forever).
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState === "finished"));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious, `accessibility violations on ${page.url()}`).toEqual([]);
}
