import { describe, expect, test } from "vitest";
import {
  apiFiltersOf,
  exportUrl,
  filtersFrom,
  hasFilters,
  isoOfUtcInput,
  NO_FILTERS,
  positionFrom,
  searchOf,
  typeSuggestions,
  utcInputValue,
  type AuditFilters,
} from "../../components/audit/filters.ts";

const params = (query: string) => new URLSearchParams(query);

describe("audit filters in the URL", () => {
  test("a shared link reads back as the filters and position it was made from", () => {
    const filters: AuditFilters = {
      type: "user.*,tenant.created",
      actor: "u-1",
      range: "custom",
      from: "2026-01-01T00:00:00.000Z",
      to: "2026-02-01T00:00:00.000Z",
    };
    const position = { cursor: "abc", start: 40 };
    const search = searchOf(filters, position);
    expect(filtersFrom(params(search))).toEqual(filters);
    expect(positionFrom(params(search))).toEqual(position);
  });

  test("no filters and the first page make an empty query", () => {
    expect(searchOf(NO_FILTERS)).toBe("");
    expect(searchOf(NO_FILTERS, { start: 0 })).toBe("");
    expect(filtersFrom(params(""))).toEqual(NO_FILTERS);
    expect(positionFrom(params(""))).toEqual({ cursor: undefined, start: 0 });
  });

  test("values are trimmed; from/to are kept only for a custom range", () => {
    expect(searchOf({ ...NO_FILTERS, type: "  user.login ", actor: " u-2 " })).toBe("type=user.login&actor=u-2");
    expect(searchOf({ ...NO_FILTERS, range: "24h", from: "2026-01-01", to: "2026-01-02" })).toBe("range=24h");
  });

  test("from or to without a range means a custom range; an unknown range is ignored", () => {
    expect(filtersFrom(params("from=2026-01-01"))).toMatchObject({ range: "custom", from: "2026-01-01", to: "" });
    expect(filtersFrom(params("range=7d&from=2026-01-01"))).toMatchObject({ range: "7d", from: "" });
    expect(filtersFrom(params("range=forever"))).toMatchObject({ range: "" });
  });

  test("skip counts only with a cursor, and only as a positive integer", () => {
    expect(positionFrom(params("skip=20"))).toEqual({ cursor: undefined, start: 0 });
    expect(positionFrom(params("cursor=c&skip=-3"))).toEqual({ cursor: "c", start: 0 });
    expect(positionFrom(params("cursor=c&skip=2.5"))).toEqual({ cursor: "c", start: 0 });
    expect(positionFrom(params("cursor=c&skip=x"))).toEqual({ cursor: "c", start: 0 });
    expect(positionFrom(params("cursor=c&skip=60"))).toEqual({ cursor: "c", start: 60 });
  });

  test("a range alone counts as a filter; blank text does not", () => {
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, type: "   " })).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, range: "1h" })).toBe(true);
  });
});

describe("audit filters as the API takes them", () => {
  const anchor = Date.parse("2026-03-10T12:00:00.000Z");

  test("a preset is the window up to the anchor", () => {
    expect(apiFiltersOf({ ...NO_FILTERS, range: "24h" }, anchor)).toEqual({
      start_date: "2026-03-09T12:00:00.000Z",
      end_date: "2026-03-10T12:00:00.000Z",
    });
    expect(apiFiltersOf({ ...NO_FILTERS, range: "1h" }, anchor).start_date).toBe("2026-03-10T11:00:00.000Z");
  });

  test("event types lose blanks and empty entries; a custom range is passed on as given", () => {
    expect(
      apiFiltersOf({ type: " user.* , ,tenant.created,", actor: " u-1 ", range: "custom", from: "2026-01-01", to: "" }, anchor),
    ).toEqual({
      event_type: "user.*,tenant.created",
      actor_id: "u-1",
      start_date: "2026-01-01",
    });
    expect(apiFiltersOf(NO_FILTERS, anchor)).toEqual({});
  });

  test("an actor with an @ is an email (matched by the API in any case), anything else an actor id", () => {
    expect(apiFiltersOf({ ...NO_FILTERS, actor: " Billing@Example.com " }, anchor)).toEqual({ actor_email: "Billing@Example.com" });
    expect(apiFiltersOf({ ...NO_FILTERS, actor: "billing-service" }, anchor)).toEqual({ actor_id: "billing-service" });
  });

  test("the export URL carries the format and exactly the given filters", () => {
    const url = exportUrl("t 1", "csv", { event_type: "user.*", start_date: "2026-01-01", actor_id: "" });
    expect(url).toBe("/api/console/tenants/t%201/audit/export?format=csv&event_type=user.*&start_date=2026-01-01");
  });
});

describe("datetime-local values in UTC", () => {
  test("round-trip to the minute", () => {
    expect(utcInputValue("2026-01-31T12:34:56.789Z")).toBe("2026-01-31T12:34");
    expect(isoOfUtcInput("2026-01-31T12:34")).toBe("2026-01-31T12:34:00.000Z");
  });

  test("empty and unreadable values", () => {
    expect(utcInputValue("")).toBe("");
    expect(utcInputValue("not a date")).toBe("");
    expect(isoOfUtcInput("")).toBe("");
    expect(isoOfUtcInput("garbage")).toBe("garbage");
  });
});

describe("event type suggestions", () => {
  const kinds = [
    { event_type: "user.login", count: 1200 },
    { event_type: "user.created", count: 3 },
    { event_type: "tenant.created", count: 1 },
  ];

  test("each kind and each prefix, with counts", () => {
    expect(typeSuggestions("", kinds)).toEqual([
      { value: "user.login", label: "1,200 events" },
      { value: "user.created", label: "3 events" },
      { value: "tenant.created", label: "1 events" },
      { value: "user.*", label: "every user event (1,203)" },
      { value: "tenant.*", label: "every tenant event (1)" },
    ]);
  });

  test("completes the entry being typed after those already chosen, leaving chosen ones out", () => {
    const values = typeSuggestions("user.login, tenant.*,us", kinds).map((s) => s.value);
    expect(values).toEqual(["user.login, tenant.*, user.created", "user.login, tenant.*, tenant.created", "user.login, tenant.*, user.*"]);
  });
});
