CREATE OR REPLACE FUNCTION directory_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  nv bigint;
BEGIN
  -- Once per transaction (docs/decisions/0700). The row triggers are deferred to the commit, so the
  -- version row is locked only from the commit's start to its end, after every other lock is taken.
  -- The notification (docs/decisions/0720) goes out with the commit, and not at all on a rollback: the
  -- embedded database's one process learns of every commit that changes the directory without asking.
  -- Only a session that watches says so (directory.watch): on PostgreSQL nobody does, and a NOTIFY
  -- serialises the commits of the whole server.
  IF current_setting('directory.bumped', true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config('directory.bumped', 'on', true);
    UPDATE directory_version SET v = v + 1 RETURNING v INTO nv;
    IF current_setting('directory.watch', true) = 'on' THEN
      PERFORM pg_notify('directory_version', nv::text);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION profile_live_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A profile's view count or its owner's last-seen moment changed (no new directory version): the
  -- embedded database's process drops what it knows of them (docs/decisions/0720).
  IF current_setting('directory.watch', true) = 'on' THEN
    PERFORM pg_notify('profile_live', (to_jsonb(NEW) ->> TG_ARGV[0]));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER profiles_live AFTER UPDATE ON "profiles" FOR EACH ROW WHEN (OLD.views IS DISTINCT FROM NEW.views) EXECUTE FUNCTION profile_live_changed('user_id');--> statement-breakpoint
CREATE TRIGGER accounts_live AFTER UPDATE ON "accounts" FOR EACH ROW WHEN (OLD.last_seen_at IS DISTINCT FROM NEW.last_seen_at) EXECUTE FUNCTION profile_live_changed('id');
