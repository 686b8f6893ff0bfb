-- custodian_shard_sql: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_shard_sql(anchor text, statement text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  shard bigint := substring(anchor FROM '_([0-9]+)$')::bigint;
  name text;
  target bigint;
BEGIN
  -- A trigger's statement with its tables written {table}. On one node (anchor: the trigger's own
  -- table), the tables themselves. On a Citus cluster the trigger runs on a shard (anchor: the
  -- shard's table, "span_102008"), and a query naming a distributed table would be planned again
  -- for the cluster, without the trigger's transition tables: each {table} is then the shard of
  -- that table colocated with the anchor (the same hash range, on this node; docs/citus.md).
  IF shard IS NULL OR to_regclass('pg_catalog.pg_dist_shard') IS NULL THEN
    RETURN regexp_replace(statement, '\{([a-z_]+)\}', '\1', 'g');
  END IF;
  FOR name IN SELECT DISTINCT m[1] FROM regexp_matches(statement, '\{([a-z_]+)\}', 'g') m LOOP
    EXECUTE 'SELECT t.shardid FROM pg_dist_shard a JOIN pg_dist_shard t
               ON t.logicalrelid = to_regclass($2) AND t.shardminvalue IS NOT DISTINCT FROM a.shardminvalue
             WHERE a.shardid = $1'
       INTO target USING shard, name;
    IF target IS NULL THEN
      RAISE EXCEPTION 'no shard of % colocated with %', name, anchor;
    END IF;
    statement := replace(statement, '{' || name || '}', quote_ident(name || '_' || target));
  END LOOP;
  RETURN statement;
END;
$function$;
