-- summary_link_to_span: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.summary_link_to_span()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {span} s SET replacing_summary_id = NULL, replaced_dropped = NULL
      FROM old_rows o
     WHERE s.session_id = o.session_id AND s.id = o.replaced_span_id AND s.replacing_summary_id = o.summary_span_id
       AND NOT EXISTS (SELECT 1 FROM {summary_link} x
                        WHERE x.session_id = o.session_id AND x.replaced_span_id = o.replaced_span_id AND x.summary_span_id = o.summary_span_id)$q$);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    -- A span is replaced at most once (summary_link's unique key): one link per span here.
    EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {span} s SET replacing_summary_id = n.summary_span_id, replaced_dropped = n.dropped
      FROM new_rows n
     WHERE s.session_id = n.session_id AND s.id = n.replaced_span_id
       AND (s.replacing_summary_id IS DISTINCT FROM n.summary_span_id OR s.replaced_dropped IS DISTINCT FROM n.dropped)$q$);
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER summary_link_to_span_delete AFTER DELETE ON public.summary_link REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_link_to_span();

CREATE OR REPLACE TRIGGER summary_link_to_span_insert AFTER INSERT ON public.summary_link REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_link_to_span();

CREATE OR REPLACE TRIGGER summary_link_to_span_update AFTER UPDATE ON public.summary_link REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_link_to_span();
