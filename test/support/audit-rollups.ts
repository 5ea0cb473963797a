/** The rollups' invariant: each bucket's row of every kind ('*') holds the sum of its kinds' rows. */
export const ALL_KINDS_MISMATCHES = `
  SELECT chain_id, actor_id, grain, bucket, s.n AS kinds, a.n AS all_kinds
    FROM (SELECT chain_id, actor_id, grain, bucket, sum(n)::bigint AS n FROM audit_counts WHERE event_type <> '*' GROUP BY 1, 2, 3, 4) s
    FULL JOIN (SELECT chain_id, actor_id, grain, bucket, n FROM audit_counts WHERE event_type = '*') a USING (chain_id, actor_id, grain, bucket)
   WHERE s.n IS DISTINCT FROM a.n`;
