CREATE OR REPLACE FUNCTION directory_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  nv bigint;
BEGIN
  -- Once per transaction (docs/decisions/0700). The row triggers are deferred to the commit, so the
  -- version row is locked only from the commit's start to its end, after every other lock is taken.
  -- The notification (docs/decisions/0720) goes out with the commit, and not at all on a rollback: the
  -- embedded database's one process learns of every commit that changes the directory without asking.
  IF current_setting('directory.bumped', true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config('directory.bumped', 'on', true);
    UPDATE directory_version SET v = v + 1 RETURNING v INTO nv;
    PERFORM pg_notify('directory_version', nv::text);
  END IF;
  RETURN NULL;
END;
$$;
