-- custodian_session_shards: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_session_shards(trigger_table text)
 RETURNS SETOF text
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  -- Where a trigger on a table of the whole instance (retention_policy) recounts sessions: on one
  -- node, once (the anchor is its own table, custodian_shard_sql). On a Citus cluster the trigger
  -- runs on every copy of the reference table, and each copy recounts the session shards placed on
  -- its own node (none on the coordinator): every session once.
  IF substring(trigger_table FROM '_([0-9]+)$') IS NULL OR to_regclass('pg_catalog.pg_dist_shard') IS NULL THEN
    RETURN NEXT trigger_table;
    RETURN;
  END IF;
  RETURN QUERY EXECUTE
    'SELECT ''session_'' || s.shardid FROM pg_dist_shard s JOIN pg_dist_placement p ON p.shardid = s.shardid
      WHERE s.logicalrelid = ''session''::regclass AND p.groupid = (SELECT groupid FROM pg_dist_local_group)
      ORDER BY s.shardid';
END;
$function$;
