-- SCIM filters on a user's emails (`emails.value eq "…"`, `emails[type eq "work" and value eq "…"]`:
-- how some IdPs look a person up before creating them) read every `emails[*].value` of the
-- resource jsonb, which no index can serve: a scan of the directory (0.1-1.5 s at 100,000 users).
-- The database keeps those values lower-cased in an array (the function is the filter's own
-- expression, lower(e -> 'value' #>> '{}') per element, so the two cannot disagree), and a GIN
-- index answers "has this email" in one probe; filter-sql.ts adds that test beside the exact one.
CREATE FUNCTION scim_email_values(resource jsonb) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN ARRAY(
    SELECT lower(e -> 'value' #>> '{}')
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(resource -> 'emails') = 'array' THEN resource -> 'emails' ELSE '[]'::jsonb END) e
  );

ALTER TABLE directory_users ADD COLUMN email_values text[] NOT NULL GENERATED ALWAYS AS (scim_email_values(resource)) STORED;

CREATE INDEX directory_users_email_values_idx ON directory_users USING gin (email_values);

-- The same for `name.givenName eq` / `name.familyName eq`: the row keeps both names as sent
-- (store-users.ts), so an equality on them, any case, can seek (directory_id, lower(name)).
CREATE INDEX directory_users_directory_id_lower_given_name_idx ON directory_users (directory_id, lower(given_name));
CREATE INDEX directory_users_directory_id_lower_family_name_idx ON directory_users (directory_id, lower(family_name));
